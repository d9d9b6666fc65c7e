// A client of grpc.health.v1 (Check): how one service asks another whether a named part of it
// is serving, e.g. the gateway asking the authorizer whether its bootstrap policy is in place.
import { makeGenericClientConstructor } from '@grpc/grpc-js';
import type { ChannelCredentials, ChannelOptions, Client, ServiceError } from '@grpc/grpc-js';
import { service } from 'grpc-health-check';
import type { ServingStatus } from 'grpc-health-check';

const HealthClientConstructor = makeGenericClientConstructor(service, 'Health');

type CheckFn = (
  req: { service: string },
  options: { deadline: number },
  cb: (err: ServiceError | null, res?: { status: ServingStatus }) => void
) => void;

export class HealthClient {
  readonly #client: Client;

  constructor(address: string, credentials: ChannelCredentials, options?: ChannelOptions) {
    this.#client = new HealthClientConstructor(address, credentials, options);
  }

  /** The status of `service` ('' : the whole server); rejects when the server does not answer. */
  check(service: string, timeoutMs = 2000): Promise<ServingStatus> {
    // A generic grpc-js client's methods are untyped properties.
    const check = (this.#client as unknown as { Check: CheckFn }).Check.bind(this.#client);
    return new Promise((resolve, reject) =>
      check({ service }, { deadline: Date.now() + timeoutMs }, (err, res) =>
        err ? reject(err) : resolve(res?.status ?? 'UNKNOWN')
      )
    );
  }

  /** Resolves once the channel is connected; rejects after `timeoutMs`. */
  waitForReady(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) =>
      this.#client.waitForReady(Date.now() + timeoutMs, (err) => (err ? reject(err) : resolve()))
    );
  }

  close(): void {
    this.#client.close();
  }
}

/**
 * The grpc.health.v1 service name under which the authorizer reports its bootstrap policy:
 * SERVING once the bootstrap roles and bindings are reconciled through the API (or when it has
 * none to write). The gateway's /readyz asks it (upstream's
 * `/readyz/poststarthook/rbac/bootstrap-roles`).
 */
export const bootstrapPolicyHealthService = 'orch.authz.v1.Authorizer/bootstrap-policy';
