// A promise-based client of orch.admission.v1.Admission (the gateway's side of the admission
// service) with a deadline on every call and errors rebuilt as StatusError.
import type { ChannelCredentials } from '@grpc/grpc-js';
import { admissionProto, channelOptions } from '@orch/proto';
import type { AdmissionClient as GrpcAdmissionClient } from '@orch/proto';
import { fromGrpcError } from '../errors/index.js';
import type { PodSecurityScope } from '../admission/index.js';
import {
  admitCallToProto,
  admitResultFromProto,
  podSecurityScopeFromProto,
} from './admission-mapping.js';
import type { AdmitCall, AdmitResult } from './admission-mapping.js';

export interface AdmissionClientOptions {
  address: string;
  credentials: ChannelCredentials;
  /** Deadline of one call; webhooks inside may take up to 30 s each (their own timeout). */
  timeoutMs?: number;
}

/** What an Admit client needs of a generated stub (the admission and certificates services share the calls). */
type AdmitStub = Pick<GrpcAdmissionClient, 'Admit' | 'ListPlugins' | 'getChannel' | 'close'>;

/**
 * One Admit call over a stub: a deadline on every call, errors rebuilt as StatusError naming
 * `what`. The admission and the certificates service answer the same messages.
 */
export class AdmitClient {
  readonly #client: AdmitStub;
  readonly #timeoutMs: number;
  readonly #what: string;
  /**
   * What the last ListPlugins answer said of the service's ResourceQuota limitedResources
   * (they may refuse writes in namespaces without quotas); true until the service has answered.
   */
  quotaLimitedResources = true;
  /**
   * What the last ListPlugins answer said of PodSecurity's defaults and exemptions; undefined
   * until the service has answered, or when it does not say.
   */
  podSecurity: PodSecurityScope | undefined;

  constructor(client: AdmitStub, what: string, timeoutMs: number) {
    this.#client = client;
    this.#what = what;
    this.#timeoutMs = timeoutMs;
  }

  /**
   * The connection the calls go over, for a health check on it (grpc-js `channelOverride`): a
   * check over a channel of its own may answer SERVING while this one still waits out its
   * reconnect backoff after an outage, and writes fail.
   */
  get channel(): ReturnType<GrpcAdmissionClient['getChannel']> {
    return this.#client.getChannel();
  }

  admit(call: AdmitCall): Promise<AdmitResult> {
    return new Promise((resolve, reject) => {
      this.#client.Admit(
        admitCallToProto(call),
        { deadline: Date.now() + this.#timeoutMs },
        (err, res) => {
          if (err || !res) return reject(fromGrpcError(err, `${this.#what} Admit`));
          try {
            resolve(admitResultFromProto(res));
          } catch (e) {
            reject(fromGrpcError(e, `${this.#what} Admit`));
          }
        }
      );
    });
  }

  /** The plugins the service serves, in the order they run. */
  listPlugins(): Promise<string[]> {
    return new Promise((resolve, reject) => {
      this.#client.ListPlugins({}, { deadline: Date.now() + this.#timeoutMs }, (err, res) => {
        if (err || !res) return reject(fromGrpcError(err, `${this.#what} ListPlugins`));
        this.quotaLimitedResources = res.resource_quota_limited_resources;
        this.podSecurity = podSecurityScopeFromProto(res.pod_security);
        resolve(res.plugins);
      });
    });
  }

  close(): void {
    this.#client.close();
  }
}

export class AdmissionClient extends AdmitClient {
  constructor(opts: AdmissionClientOptions) {
    super(
      new admissionProto.orch.admission.v1.Admission(opts.address, opts.credentials, {
        ...channelOptions,
        'grpc.ssl_target_name_override': 'admission',
      }),
      'admission service',
      opts.timeoutMs ?? 35_000
    );
  }
}
