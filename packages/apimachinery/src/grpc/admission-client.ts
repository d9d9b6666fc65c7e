// A promise-based client of orch.admission.v1.Admission (the gateway's side of the admission
// service) with a deadline on every call and errors rebuilt as StatusError. The admission
// service's Admit calls go on its AdmitCalls stream (call-stream.ts), as unary calls to a
// service without it; the certificates service's are unary.
import type { ChannelCredentials } from '@grpc/grpc-js';
import { admissionProto, channelOptions } from '@orch/proto';
import type {
  AdmissionClient as GrpcAdmissionClient,
  AdmitRequest,
  AdmitResponse__Output,
} from '@orch/proto';
import { fromGrpcError } from '../errors/index.js';
import type { PodSecurityScope } from '../admission/index.js';
import {
  admitCallToProto,
  admitResultFromProto,
  podSecurityScopeFromProto,
} from './admission-mapping.js';
import type { AdmitCall, AdmitResult } from './admission-mapping.js';
import { CallStream } from './call-stream.js';
import type { CallDuplex } from './call-stream.js';

export interface AdmissionClientOptions {
  address: string;
  credentials: ChannelCredentials;
  /** Deadline of one call; webhooks inside may take up to 30 s each (their own timeout). */
  timeoutMs?: number;
  /** How long the AdmitCalls stream may go without calls before it is ended (default 30 s). */
  callsIdleMs?: number;
}

/** What an Admit client needs of a generated stub (the admission and certificates services share the calls). */
type AdmitStub = Pick<GrpcAdmissionClient, 'Admit' | 'ListPlugins' | 'getChannel' | 'close'>;

type AdmitRequests = { admit: AdmitRequest };
type AdmitAnswers = { admit: AdmitResponse__Output };

/**
 * One Admit call over a stub: a deadline on every call, errors rebuilt as StatusError naming
 * `what`. The admission and the certificates service answer the same messages.
 */
export class AdmitClient {
  readonly #client: AdmitStub;
  readonly #timeoutMs: number;
  readonly #what: string;
  readonly #calls: CallStream<'admit', AdmitRequests, AdmitAnswers> | undefined;
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

  /** `stream` opens the service's AdmitCalls stream, when it has one. */
  constructor(
    client: AdmitStub,
    what: string,
    timeoutMs: number,
    stream?: { open(): CallDuplex<'admit', AdmitRequests>; idleMs: number }
  ) {
    this.#client = client;
    this.#what = what;
    this.#timeoutMs = timeoutMs;
    this.#calls =
      stream &&
      new CallStream<'admit', AdmitRequests, AdmitAnswers>({
        open: () => ({ call: stream.open(), failed: () => undefined }),
        unary: (_name, req) => this.#unary(req),
        what: () => `${what} Admit`,
        client: what,
        timeoutMs,
        idleMs: stream.idleMs,
      });
  }

  /**
   * The connection the calls go over, for a health check on it (grpc-js `channelOverride`): a
   * check over a channel of its own may answer SERVING while this one still waits out its
   * reconnect backoff after an outage, and writes fail.
   */
  get channel(): ReturnType<GrpcAdmissionClient['getChannel']> {
    return this.#client.getChannel();
  }

  async admit(call: AdmitCall): Promise<AdmitResult> {
    const req = admitCallToProto(call);
    const res = await (this.#calls ? this.#calls.call('admit', req) : this.#unary(req));
    try {
      return admitResultFromProto(res);
    } catch (e) {
      throw fromGrpcError(e, `${this.#what} Admit`);
    }
  }

  #unary(req: AdmitRequest): Promise<AdmitResponse__Output> {
    return new Promise((resolve, reject) => {
      this.#client.Admit(req, { deadline: Date.now() + this.#timeoutMs }, (err, res) => {
        if (err || !res) return reject(fromGrpcError(err, `${this.#what} Admit`));
        resolve(res);
      });
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
    this.#calls?.close();
    this.#client.close();
  }
}

export class AdmissionClient extends AdmitClient {
  constructor(opts: AdmissionClientOptions) {
    const stub = new admissionProto.orch.admission.v1.Admission(opts.address, opts.credentials, {
      ...channelOptions,
      'grpc.ssl_target_name_override': 'admission',
    });
    super(stub, 'admission service', opts.timeoutMs ?? 35_000, {
      open: () => stub.AdmitCalls() as unknown as CallDuplex<'admit', AdmitRequests>,
      idleMs: opts.callsIdleMs ?? 30_000,
    });
  }
}
