// A promise-based client of orch.authz.v1.Authorizer with a deadline on every call and errors
// rebuilt as StatusError.
import type { ChannelCredentials } from '@grpc/grpc-js';
import { channelOptions, authorizerProto } from '@orch/proto';
import type { AuthorizerClient as GrpcAuthorizerClient } from '@orch/proto';
import { fromGrpcError } from '../errors/index.js';
import type {
  Attributes,
  AuthorizationResult,
  RulesReviewResult,
  UserInfo,
} from '../auth/index.js';
import {
  attributesToProto,
  authorizationResultFromProto,
  rulesReviewFromProto,
  userToProto,
} from './authorizer-mapping.js';

export interface AuthorizerClientOptions {
  address: string;
  credentials: ChannelCredentials;
  timeoutMs?: number;
}

export class AuthorizerClient {
  readonly #client: GrpcAuthorizerClient;
  readonly #timeoutMs: number;

  constructor(opts: AuthorizerClientOptions) {
    this.#client = new authorizerProto.orch.authz.v1.Authorizer(opts.address, opts.credentials, {
      ...channelOptions,
      'grpc.ssl_target_name_override': 'authorizer',
    });
    this.#timeoutMs = opts.timeoutMs ?? 5_000;
  }

  /** The connection the calls go over, for a health check on it (grpc-js `channelOverride`). */
  get channel(): ReturnType<GrpcAuthorizerClient['getChannel']> {
    return this.#client.getChannel();
  }

  authorize(a: Attributes): Promise<AuthorizationResult> {
    return new Promise((resolve, reject) => {
      this.#client.Authorize(
        attributesToProto(a),
        { deadline: Date.now() + this.#timeoutMs },
        (err, res) => {
          if (err || !res) return reject(fromGrpcError(err, 'authorizer Authorize'));
          resolve(authorizationResultFromProto(res));
        }
      );
    });
  }

  rulesReview(u: UserInfo, namespace: string): Promise<RulesReviewResult> {
    return new Promise((resolve, reject) => {
      this.#client.RulesReview(
        { ...userToProto(u), namespace },
        { deadline: Date.now() + this.#timeoutMs },
        (err, res) => {
          if (err || !res) return reject(fromGrpcError(err, 'authorizer RulesReview'));
          resolve(rulesReviewFromProto(res));
        }
      );
    });
  }

  close(): void {
    this.#client.close();
  }
}
