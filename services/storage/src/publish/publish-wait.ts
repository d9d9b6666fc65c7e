// A write is answered once the publisher has announced its revision (publishedSubject): every
// change up to it is then on NATS, ahead of any answer the publisher gives a consistent read, so
// a read through any gateway that begins after the answer sees the write (docs/architecture.md,
// "Consistent reads"). Without an announcement (NATS or the publisher away, a new publisher
// catching up) the write is answered after `waitMs`: the publisher answers revision requests
// only with a proof younger than half of it, which a write that old is inside of. Writes never
// fail for want of NATS; they are slower while it is away. The replica that publishes is told
// at once, not through NATS (Publisher's onAnnounced): what it announces is already handed to
// the connection its answers go out on.
import type { NatsConnection, Subscription } from 'nats';
import { RevisionWaiters } from '@orch/apimachinery/informer';
import { publishedSubject } from '@orch/apimachinery/watch';

export interface PublishWaitOptions {
  waitMs: number;
  /** After each wait: how long it took, and whether the announcement came (or the time ran out). */
  onWait?: (seconds: number, announced: boolean) => void;
}

export class PublishWait {
  readonly #nats: NatsConnection;
  readonly #opts: PublishWaitOptions;
  readonly #waiters = new RevisionWaiters();
  #announced = 0;
  #sub: Subscription | undefined;

  constructor(nats: NatsConnection, opts: PublishWaitOptions) {
    this.#nats = nats;
    this.#opts = opts;
  }

  start(): void {
    this.#sub ??= this.#nats.subscribe(publishedSubject, {
      callback: (err, msg) => {
        if (err) return;
        this.announce(Number(Buffer.from(msg.data).toString('latin1')));
      },
    });
  }

  /** An announcement: from NATS, or from the publisher of this replica at once. */
  announce(revision: number): void {
    if (!Number.isSafeInteger(revision) || revision <= this.#announced) return;
    this.#announced = revision;
    this.#waiters.reached(revision);
  }

  /** Stops listening; writes waiting still wait out their time (an early answer is unsafe). */
  stop(): void {
    this.#sub?.unsubscribe();
    this.#sub = undefined;
  }

  /** Resolves once `revision` is announced, or after waitMs (counted from this call). */
  async published(revision: number): Promise<void> {
    if (this.#announced >= revision) {
      this.#opts.onWait?.(0, true);
      return;
    }
    const started = performance.now();
    const announced = await this.#waiters.wait(revision, this.#opts.waitMs);
    this.#opts.onWait?.((performance.now() - started) / 1000, announced);
  }
}
