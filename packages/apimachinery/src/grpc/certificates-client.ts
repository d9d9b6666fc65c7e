// A promise-based client of orch.certificates.v1.Certificates (the gateway's side of the
// certificates service) with a deadline on every call and errors rebuilt as StatusError. Its
// messages are the admission service's, mapped by admission-mapping.ts.
import type { ChannelCredentials } from '@grpc/grpc-js';
import { certificatesProto, channelOptions } from '@orch/proto';
import type { CertificatesClient as GrpcCertificatesClient } from '@orch/proto';
import { fromGrpcError } from '../errors/index.js';
import { admitCallToProto, admitResultFromProto } from './admission-mapping.js';
import type { AdmitCall, AdmitResult } from './admission-mapping.js';

export interface CertificatesClientOptions {
  address: string;
  credentials: ChannelCredentials;
  /** Deadline of one call (the service asks the authorizer at most twice per plugin). */
  timeoutMs?: number;
}

export class CertificatesClient {
  readonly #client: GrpcCertificatesClient;
  readonly #timeoutMs: number;

  constructor(opts: CertificatesClientOptions) {
    this.#client = new certificatesProto.orch.certificates.v1.Certificates(
      opts.address,
      opts.credentials,
      {
        ...channelOptions,
        'grpc.keepalive_time_ms': 30_000,
        'grpc.ssl_target_name_override': 'certificates',
      }
    );
    this.#timeoutMs = opts.timeoutMs ?? 10_000;
  }

  /** The connection the calls go over, for a health check on it (grpc-js `channelOverride`). */
  get channel(): ReturnType<GrpcCertificatesClient['getChannel']> {
    return this.#client.getChannel();
  }

  admit(call: AdmitCall): Promise<AdmitResult> {
    return new Promise((resolve, reject) => {
      this.#client.Admit(
        admitCallToProto(call),
        { deadline: Date.now() + this.#timeoutMs },
        (err, res) => {
          if (err || !res) return reject(fromGrpcError(err, 'certificates service Admit'));
          try {
            resolve(admitResultFromProto(res));
          } catch (e) {
            reject(fromGrpcError(e, 'certificates service Admit'));
          }
        }
      );
    });
  }

  close(): void {
    this.#client.close();
  }
}
