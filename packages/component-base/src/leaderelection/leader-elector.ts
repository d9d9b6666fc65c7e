// Leader election on a coordination.orch.io/v1 Lease (k8s client-go tools/leaderelection with
// the LeaseLock): a candidate acquires the lease when none exists, when it holds it, or when
// the holder's record has not changed for leaseDuration as this candidate observed it (its own
// clock, never the holder's timestamps); the leader renews every retryPeriod and stops leading
// when no renewal succeeded for renewDeadline. Writes are optimistic (the read resourceVersion),
// so two candidates never both win one round. With releaseOnCancel (client-go's ReleaseOnCancel)
// a leader that is stopped gives the lease up, so that another replica need not wait it out.
// Every component that elects a leader (the controllers, the certificates service) uses this one.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type * as coordinationV1 from '@orch/api/coordination/v1';
import { isNotFound } from '@orch/apimachinery/errors';
import type { ObjectMeta } from '@orch/apimachinery/meta';
import type { Logger } from '../logs/index.js';

/** What the elector needs of the public API's REST client (`RestClient` has it). */
export interface LeaseClient {
  request(
    method: string,
    path: string,
    body?: unknown,
    timeoutMs?: number
  ): Promise<Record<string, unknown>>;
}

export interface LeaderElectionConfig {
  namespace: string;
  name: string;
  /** Holder identity (k8s: hostname_uuid). */
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  /** A leader stopped by its signal gives the lease up (client-go ReleaseOnCancel). */
  releaseOnCancel?: boolean;
}

/** The Lease as the elector writes it: the generated kind, its metadata with name and namespace. */
type Lease = coordinationV1.Lease & {
  metadata: ObjectMeta & { name: string; namespace: string };
};

/** k8s' holder identity for kube-controller-manager: the hostname, `_`, a fresh UUID. */
export const defaultIdentity = (): string => `${hostname()}_${randomUUID()}`;

/** metav1.MicroTime's RFC 3339 form with microseconds. */
const microNow = (): string => new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

export class LeaderElector {
  readonly #client: LeaseClient;
  readonly #config: LeaderElectionConfig;
  readonly #log: Logger;
  /** The record last seen, as JSON, and when this candidate first saw it (k8s observedTime). */
  #observedRaw = '';
  #observedAt = 0;
  #observedHolder = '';

  constructor(client: LeaseClient, config: LeaderElectionConfig, log: Logger) {
    this.#client = client;
    this.#config = config;
    this.#log = log.child({
      component: 'leaderelection',
      lease: `${config.namespace}/${config.name}`,
    });
  }

  get identity(): string {
    return this.#config.identity;
  }

  get #path(): string {
    const { namespace } = this.#config;
    return `/apis/coordination.orch.io/v1/namespaces/${namespace}/leases`;
  }

  #isLeader(): boolean {
    return this.#observedHolder === this.#config.identity;
  }

  /**
   * Campaigns until leading, calls `lead` with a signal aborted when leadership is lost (or the
   * given signal aborts), and resolves with 'lost' or 'stopped' once the work `lead` returned has
   * ended (and, with releaseOnCancel, the lease is given up after a stop).
   */
  async run(
    signal: AbortSignal,
    lead: (leading: AbortSignal) => Promise<void> | void
  ): Promise<'lost' | 'stopped'> {
    this.#log.info('attempting to acquire leader lease', { identity: this.#config.identity });
    // acquire: wait.JitterUntil(retryPeriod, 1.2)
    while (!signal.aborted) {
      if (await this.#tryAcquireOrRenew()) break;
      await sleep(this.#config.retryPeriodMs * (1 + Math.random() * 1.2), signal);
    }
    if (signal.aborted) return 'stopped';
    this.#log.info('successfully acquired lease', { identity: this.#config.identity });
    const leading = new AbortController();
    const onStop = (): void => leading.abort();
    signal.addEventListener('abort', onStop, { once: true });
    const work = Promise.resolve(lead(leading.signal)).catch((err: unknown) =>
      this.#log.error('leader work failed', { err: (err as Error).message })
    );
    let outcome: 'lost' | 'stopped' = 'stopped';
    // renew: every retryPeriod, each renewal retried until renewDeadline passes.
    while (!signal.aborted) {
      const deadline = Date.now() + this.#config.renewDeadlineMs;
      let renewed = false;
      while (!signal.aborted && Date.now() < deadline) {
        if (await this.#tryAcquireOrRenew()) {
          renewed = true;
          break;
        }
        await sleep(this.#config.retryPeriodMs, signal);
      }
      if (signal.aborted) break;
      if (!renewed) {
        this.#log.error('failed to renew lease: leaderelection lost', {
          identity: this.#config.identity,
        });
        outcome = 'lost';
        break;
      }
      await sleep(this.#config.retryPeriodMs, signal);
    }
    signal.removeEventListener('abort', onStop);
    leading.abort();
    await work;
    if (outcome === 'stopped' && this.#config.releaseOnCancel) await this.#release();
    return outcome;
  }

  /** k8s LeaderElector.tryAcquireOrRenew. */
  async #tryAcquireOrRenew(): Promise<boolean> {
    const { name, namespace, identity, leaseDurationMs } = this.#config;
    const now = microNow();
    const record: coordinationV1.LeaseSpec = {
      holderIdentity: identity,
      leaseDurationSeconds: Math.round(leaseDurationMs / 1000),
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 0,
    };
    let lease: Lease;
    try {
      lease = (await this.#client.request(
        'GET',
        `${this.#path}/${name}`,
        undefined,
        this.#config.renewDeadlineMs
      )) as Lease; // the API answers the stored Lease
    } catch (err) {
      if (!isNotFound(err)) {
        this.#log.warn('error retrieving lease', { err: (err as Error).message });
        return false;
      }
      try {
        await this.#client.request('POST', this.#path, {
          apiVersion: 'coordination.orch.io/v1',
          kind: 'Lease',
          metadata: { name, namespace },
          spec: record,
        });
      } catch (createErr) {
        this.#log.warn('error initially creating lease', { err: (createErr as Error).message });
        return false;
      }
      this.#observe(record);
      return true;
    }
    const old = lease.spec ?? {};
    const raw = JSON.stringify(old);
    if (raw !== this.#observedRaw) this.#observe(old, raw);
    const valid = this.#observedAt + leaseDurationMs > Date.now();
    if (old.holderIdentity && valid && !this.#isLeader()) return false;
    if (this.#isLeader()) {
      record.acquireTime = old.acquireTime ?? now;
      record.leaseTransitions = old.leaseTransitions ?? 0;
    } else {
      record.leaseTransitions = (old.leaseTransitions ?? 0) + 1;
    }
    try {
      await this.#client.request(
        'PUT',
        `${this.#path}/${name}`,
        {
          apiVersion: 'coordination.orch.io/v1',
          kind: 'Lease',
          metadata: { ...lease.metadata },
          spec: record,
        },
        this.#config.renewDeadlineMs
      );
    } catch (err) {
      this.#log.warn('failed to update lease', { err: (err as Error).message });
      return false;
    }
    this.#observe(record);
    return true;
  }

  #observe(record: coordinationV1.LeaseSpec, raw = JSON.stringify(record)): void {
    this.#observedRaw = raw;
    this.#observedAt = Date.now();
    this.#observedHolder = record.holderIdentity ?? '';
  }

  /**
   * Gives the lease up (k8s LeaderElector.release: holder cleared, duration 1 s) so that another
   * replica takes over at once instead of after the lease duration.
   */
  async #release(): Promise<void> {
    if (!this.#isLeader()) return;
    const { name, identity } = this.#config;
    try {
      const lease = (await this.#client.request(
        'GET',
        `${this.#path}/${name}`,
        undefined,
        2000
      )) as Lease; // the API answers the stored Lease
      if (lease.spec?.holderIdentity !== identity) return;
      await this.#client.request(
        'PUT',
        `${this.#path}/${name}`,
        {
          apiVersion: 'coordination.orch.io/v1',
          kind: 'Lease',
          metadata: { ...lease.metadata },
          spec: {
            ...lease.spec,
            holderIdentity: '',
            leaseDurationSeconds: 1,
            renewTime: microNow(),
          },
        },
        2000
      );
      this.#observedHolder = '';
      this.#log.info('released lease', { identity });
    } catch (err) {
      this.#log.info('lease not released', { err: (err as Error).message });
    }
  }
}
