// Leader election among storage replicas (an etcd election): exactly one runs the publisher
// and the compactor. Losing the lease stops them; the replica campaigns again.
//
// A round that ends while etcd is away (its tasks fail when etcd goes) cannot resign: the revoke
// fails, and the election key stays in etcd under a lease etcd keeps across its restart. Every
// replica's next campaign would then wait that lease out (the whole TTL after etcd's return, with
// nothing published meanwhile). So the replica keeps the ended round's lease and revokes it
// before campaigning again, as soon as etcd answers (as client-go's leader election releases its
// lock on the way out with ReleaseOnCancel).
//
// holdsLease() says whether the lease is surely still held: etcd renewed it on a keep-alive
// sent less than 80% of the TTL ago (etcd counts the TTL from when it received it, later). A
// successor can be elected only once the lease has expired, so a replica that acts as leader
// only while this holds never overlaps its successor, however late it notices the loss (the
// library reports a lost lease only after twice the TTL without an answer). The publisher
// announces and answers revisions only while it holds.
import { EtcdLeaseInvalidError } from 'etcd3';
import type { Campaign, Etcd3, Lease } from 'etcd3';
import type { Logger } from '@orch/component-base/logs';

export interface LeaderTask {
  /** Runs while leading; resolves when asked to stop, rejects on failure. */
  run(): Promise<void>;
  stop(): void;
}

export class LeaderElector {
  readonly #etcd: Etcd3;
  readonly #log: Logger;
  readonly #identity: string;
  readonly #ttlSeconds: number;
  readonly #newTasks: () => LeaderTask[];
  #stopped = false;
  #leading = false;
  #resign: (() => Promise<void>) | undefined;
  #tasks: LeaderTask[] = [];
  /** The lease of a round that ended without a successful resignation, to revoke first. */
  #staleLease: string | undefined;
  /** Until when (performance.now()) this round's lease is surely held. */
  #heldUntil = -Infinity;

  constructor(
    etcd: Etcd3,
    log: Logger,
    opts: { identity: string; ttlSeconds: number; newTasks: () => LeaderTask[] }
  ) {
    this.#etcd = etcd;
    this.#log = log;
    this.#identity = opts.identity;
    this.#ttlSeconds = opts.ttlSeconds;
    this.#newTasks = opts.newTasks;
  }

  get leading(): boolean {
    return this.#leading;
  }

  /** Whether this replica leads and surely still holds the lease (see the top of the file). */
  holdsLease(): boolean {
    return this.#leading && performance.now() < this.#heldUntil;
  }

  /** Follows the campaign's lease keep-alives: each answered one extends #heldUntil. */
  #trackLease(campaign: Campaign): void {
    // The library keeps the campaign's lease private; its keep-alive events are public.
    const lease = (campaign as unknown as { lease?: Lease }).lease;
    if (!lease) throw new Error('etcd3: a campaign without a lease; holdsLease() cannot work');
    const fired: number[] = [];
    const ttlMs = this.#ttlSeconds * 1000;
    lease.on('keepaliveFired', () => fired.push(performance.now()));
    lease.on('keepaliveSucceeded', () => {
      const at = fired.shift();
      if (at !== undefined) this.#heldUntil = Math.max(this.#heldUntil, at + 0.8 * ttlMs);
    });
    // A new keep-alive stream answers only what is sent on it.
    lease.on('keepaliveFailed', () => (fired.length = 0));
    lease.on('lost', () => (this.#heldUntil = -Infinity));
  }

  start(): void {
    void this.#campaignLoop();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stopTasks();
    await this.#resign?.().catch(() => undefined);
  }

  async #campaignLoop(): Promise<void> {
    while (!this.#stopped) {
      try {
        await this.#revokeStaleLease();
        await this.#campaignOnce();
      } catch (err) {
        this.#log.warn('leader election round ended', { err });
      }
      this.#stopTasks();
      if (!this.#stopped) await new Promise((r) => setTimeout(r, 500));
    }
  }

  /**
   * Revokes the lease of a round that could not resign, retrying while etcd is away. Gives up
   * after twice the TTL: by then etcd has let the lease expire, unless it was down all along.
   */
  async #revokeStaleLease(): Promise<void> {
    const id = this.#staleLease;
    if (id === undefined) return;
    const deadline = Date.now() + 2 * 1000 * this.#ttlSeconds;
    while (!this.#stopped && Date.now() < deadline) {
      try {
        await this.#etcd.leaseClient.leaseRevoke({ ID: id });
        this.#log.info('revoked the lease of the previous round', { lease: id });
        break;
      } catch (err) {
        if (err instanceof EtcdLeaseInvalidError) break; // expired or revoked already
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    this.#staleLease = undefined;
  }

  #campaignOnce(): Promise<void> {
    return new Promise<void>((resolve) => {
      const election = this.#etcd.election('orch-storage-publisher', this.#ttlSeconds);
      const campaign = election.campaign(this.#identity);
      this.#heldUntil = -Infinity;
      this.#trackLease(campaign);
      this.#resign = () => campaign.resign();
      // The lease id is the last segment of the campaign's key, known once the lease is granted.
      let leaseId: string | undefined;
      campaign.getCampaignKey().then(
        (key) => (leaseId = key.slice(key.lastIndexOf('/') + 1)),
        () => undefined
      );
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        campaign.resign().then(
          () => resolve(),
          () => {
            this.#staleLease = leaseId;
            resolve();
          }
        );
      };
      campaign.on('error', (err: unknown) => {
        this.#log.warn('lost leadership', { err });
        finish();
      });
      campaign.on('elected', () => {
        if (this.#stopped) return finish();
        this.#leading = true;
        this.#log.info('elected publisher', { identity: this.#identity });
        this.#tasks = this.#newTasks();
        for (const t of this.#tasks) {
          t.run().then(
            () => finish(),
            (err: unknown) => {
              this.#log.error('leader task failed', { err });
              finish();
            }
          );
        }
      });
    });
  }

  #stopTasks(): void {
    this.#leading = false;
    this.#heldUntil = -Infinity;
    for (const t of this.#tasks) t.stop();
    this.#tasks = [];
  }
}
