// Leader election among storage replicas (an etcd election): exactly one runs the publisher
// and the compactor. Losing the lease stops them; the replica campaigns again.
import type { Etcd3 } from 'etcd3';
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
        await this.#campaignOnce();
      } catch (err) {
        this.#log.warn('leader election round ended', { err });
      }
      this.#stopTasks();
      if (!this.#stopped) await new Promise((r) => setTimeout(r, 500));
    }
  }

  #campaignOnce(): Promise<void> {
    return new Promise<void>((resolve) => {
      const election = this.#etcd.election('orch-storage-publisher', this.#ttlSeconds);
      const campaign = election.campaign(this.#identity);
      this.#resign = () => campaign.resign();
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        void campaign.resign().catch(() => undefined);
        resolve();
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
    for (const t of this.#tasks) t.stop();
    this.#tasks = [];
  }
}
