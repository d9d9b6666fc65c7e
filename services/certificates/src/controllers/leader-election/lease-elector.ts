// Leader election on a coordination.orch.io/v1 Lease through the public API (client-go
// tools/leaderelection with a LeaseLock): acquire when the lease is free or its holder has not
// renewed within leaseDuration as observed on this clock; renew every retryPeriod; a leader that
// cannot renew within renewDeadline stops leading; a leader stopping releases the lease (client-go's
// ReleaseOnCancel) so another replica takes over at once.
import { isAlreadyExists, isConflict, isNotFound } from '@orch/apimachinery/errors';
import type { Logger } from '@orch/component-base/logs';

type Json = Record<string, unknown>;

/** What the elector needs of `RestClient`. */
export interface LeaseClient {
  request(method: string, path: string, body?: unknown, timeoutMs?: number): Promise<Json>;
}

export interface LeaseElectorOptions {
  client: LeaseClient;
  namespace: string;
  name: string;
  /** This replica's identity (holderIdentity). */
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  log: Logger;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

interface Lease {
  metadata: { name: string; namespace?: string; resourceVersion?: string };
  spec?: LeaseSpec;
}

/** A MicroTime as the API writes it (RFC 3339 with microseconds). */
export function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

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

export class LeaseElector {
  readonly #o: LeaseElectorOptions;
  readonly #path: string;
  #observed: { spec: LeaseSpec; at: number } | undefined;
  #leading = false;

  constructor(o: LeaseElectorOptions) {
    this.#o = o;
    this.#path = `/apis/coordination.orch.io/v1/namespaces/${o.namespace}/leases`;
  }

  get leading(): boolean {
    return this.#leading;
  }

  /**
   * Campaigns until `signal` aborts: while leading, `lead(leaderSignal)` runs; its signal aborts
   * when leadership is lost or `signal` aborts. After losing it campaigns again.
   */
  async run(
    signal: AbortSignal,
    lead: (leaderSignal: AbortSignal) => Promise<void>
  ): Promise<void> {
    const log = this.#o.log;
    while (!signal.aborted) {
      if (!(await this.#tryAcquireOrRenew())) {
        await sleep(this.#o.retryPeriodMs, signal);
        continue;
      }
      this.#leading = true;
      log.info('became leader', {
        lease: `${this.#o.namespace}/${this.#o.name}`,
        identity: this.#o.identity,
      });
      const leader = new AbortController();
      const stop = (): void => leader.abort();
      signal.addEventListener('abort', stop, { once: true });
      const leading = lead(leader.signal).catch((err: unknown) =>
        log.error('leader work failed', { err: String(err) })
      );
      let lastRenew = Date.now();
      while (!leader.signal.aborted) {
        await sleep(this.#o.retryPeriodMs, leader.signal);
        if (leader.signal.aborted) break;
        if (await this.#tryAcquireOrRenew()) lastRenew = Date.now();
        else if (Date.now() - lastRenew > this.#o.renewDeadlineMs) {
          log.warn('lost leadership', { lease: this.#o.name });
          leader.abort();
        }
      }
      signal.removeEventListener('abort', stop);
      this.#leading = false;
      await leading;
      if (signal.aborted) await this.#release();
    }
  }

  async #tryAcquireOrRenew(): Promise<boolean> {
    const now = new Date();
    const mine: LeaseSpec = {
      holderIdentity: this.#o.identity,
      leaseDurationSeconds: Math.ceil(this.#o.leaseDurationMs / 1000),
      acquireTime: microTime(now),
      renewTime: microTime(now),
      leaseTransitions: 0,
    };
    let lease: Lease;
    try {
      lease = (await this.#o.client.request(
        'GET',
        `${this.#path}/${this.#o.name}`
      )) as unknown as Lease;
    } catch (err) {
      if (!isNotFound(err)) return this.#failed(err);
      try {
        await this.#o.client.request('POST', this.#path, {
          apiVersion: 'coordination.orch.io/v1',
          kind: 'Lease',
          metadata: { name: this.#o.name, namespace: this.#o.namespace },
          spec: mine,
        });
        this.#observed = { spec: mine, at: Date.now() };
        return true;
      } catch (e) {
        return isAlreadyExists(e) ? false : this.#failed(e);
      }
    }
    const spec = lease.spec ?? {};
    if (!this.#observed || JSON.stringify(this.#observed.spec) !== JSON.stringify(spec))
      this.#observed = { spec, at: Date.now() };
    const holder = spec.holderIdentity ?? '';
    const expired = this.#observed.at + (spec.leaseDurationSeconds ?? 0) * 1000 <= Date.now();
    if (holder && holder !== this.#o.identity && !expired) return false;
    const next: LeaseSpec =
      holder === this.#o.identity
        ? { ...spec, renewTime: mine.renewTime, leaseDurationSeconds: mine.leaseDurationSeconds }
        : { ...mine, leaseTransitions: (spec.leaseTransitions ?? 0) + 1 };
    try {
      await this.#o.client.request('PUT', `${this.#path}/${this.#o.name}`, {
        ...lease,
        spec: next,
      });
      this.#observed = { spec: next, at: Date.now() };
      return true;
    } catch (err) {
      return isConflict(err) ? false : this.#failed(err);
    }
  }

  #failed(err: unknown): false {
    this.#o.log.warn('lease request failed', { lease: this.#o.name, err: String(err) });
    return false;
  }

  /** Gives the lease up (holder cleared, duration 1 s) so another replica need not wait. */
  async #release(): Promise<void> {
    try {
      const lease = (await this.#o.client.request(
        'GET',
        `${this.#path}/${this.#o.name}`,
        undefined,
        2000
      )) as unknown as Lease;
      if (lease.spec?.holderIdentity !== this.#o.identity) return;
      await this.#o.client.request(
        'PUT',
        `${this.#path}/${this.#o.name}`,
        {
          ...lease,
          spec: {
            ...lease.spec,
            holderIdentity: '',
            leaseDurationSeconds: 1,
            renewTime: microTime(new Date()),
          },
        },
        2000
      );
    } catch (err) {
      this.#o.log.info('lease not released', { err: String(err) });
    }
  }
}
