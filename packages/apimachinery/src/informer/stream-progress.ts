// How far the whole change stream has come, as one NATS connection receives it: every change
// and progress message of every type (`orch.watch.>`), read only for its revision. The
// publisher sends in revision order on one connection, and a connection's subscriptions are
// called in the order their messages arrive, so once a message after revision R has arrived,
// every message of every type up to R has arrived too (a message at R itself is not enough: each
// subscription gets its own copy of it, in an order the server chooses). A type's watch can then say it is complete up
// to R without a write (etcd's progress notify, which upstream's cacher requests for consistent
// reads); the storage+NATS ListerWatcher does so for requestProgress(). After a disconnect the
// stream is not trusted until messages lost meanwhile had time to be revealed by the
// publisher's own progress messages.
//
// While someone waits for a revision the stream has not passed, the publisher is asked for
// progress (progressRequestSubject) at once and then every 100 ms until the wait ends, as
// upstream's cacher asks etcd for a progress notify every 100 ms while consistent reads wait
// (storage/cacher/progress, progressRequestPeriod): a read of a quiet type then waits for one
// checkpoint write, not for the publisher's next interval.
//
// The publisher's answer to a revision request (publishedRevision) is such a proof too: it is
// sent after every message up to the revision it names, on the same connection, so once it has
// arrived every message up to that revision has (docs/architecture.md, "Consistent reads").
import type { NatsConnection, Subscription } from 'nats';
import {
  progressRequestSubject,
  revisionRequestSubject,
  watchSubjectRoot,
} from '../watch/index.js';
import { RevisionWaiters } from './revision-waiters.js';

const revisionField = /"revision":(\d+)/;

/** How often the publisher is asked again while a wait goes on (upstream's progressRequestPeriod). */
const progressRequestPeriodMs = 100;

export interface StreamProgressOptions {
  /** How long after a disconnect the stream is not trusted (twice the publisher's progress interval). */
  distrustAfterDisconnectMs?: number;
}

export class StreamProgress {
  readonly #nats: NatsConnection;
  readonly #distrustMs: number;
  #sub: Subscription | undefined;
  #revision = 0;
  /** Every message up to this revision has arrived (one after it did, or the publisher said so). */
  #passed = 0;
  #disconnectedAt = 0;
  #connected = true;
  readonly #waiters = new RevisionWaiters();
  /** Waits in progress, and the ticker asking for progress while there are any. */
  #waiting = 0;
  #asking: NodeJS.Timeout | undefined;

  constructor(nats: NatsConnection, opts: StreamProgressOptions = {}) {
    this.#nats = nats;
    this.#distrustMs = opts.distrustAfterDisconnectMs ?? 2500;
  }

  /** The highest revision of any message received. */
  get revision(): number {
    return this.#revision;
  }

  /** Whether the connection is up (no changes arrive while it is down). */
  get connected(): boolean {
    return this.#connected;
  }

  /** Whether no disconnect happened recently (messages may have been lost then). */
  get trusted(): boolean {
    return Date.now() - this.#disconnectedAt >= this.#distrustMs;
  }

  start(): void {
    if (this.#sub) return;
    this.#sub = this.#nats.subscribe(`${watchSubjectRoot}.>`, {
      callback: (err, msg) => {
        if (err) return;
        const head = Buffer.from(
          msg.data.buffer,
          msg.data.byteOffset,
          Math.min(msg.data.byteLength, 400)
        );
        const m = revisionField.exec(head.toString('latin1'));
        if (!m) return;
        const r = Number(m[1]);
        if (r <= this.#revision) return;
        this.#revision = r;
        this.#pass(r - 1);
      },
    });
    void (async () => {
      for await (const s of this.#nats.status()) {
        if (s.type === 'disconnect' || s.type === 'reconnect') this.#disconnectedAt = Date.now();
        if (s.type === 'disconnect') this.#connected = false;
        if (s.type === 'reconnect') this.#connected = true;
      }
    })().catch(() => undefined);
  }

  stop(): void {
    this.#sub?.unsubscribe();
    this.#waiters.cancelAll();
    clearInterval(this.#asking);
    this.#asking = undefined;
  }

  /**
   * Asks the publisher for the revision a consistent read must reach: every change up to it is
   * then on this connection. Rejects when the publisher does not answer within `timeoutMs` or
   * cannot vouch for a revision now (the caller reads storage's instead).
   */
  async publishedRevision(timeoutMs: number): Promise<number> {
    const reply = await this.#nats.request(revisionRequestSubject, undefined, {
      timeout: timeoutMs,
    });
    const text = Buffer.from(reply.data).toString('latin1');
    const r = Number(text);
    if (text === '' || !Number.isSafeInteger(r)) {
      throw new Error('the publisher cannot vouch for its revision now');
    }
    this.#pass(r);
    return r;
  }

  #pass(revision: number): void {
    if (revision <= this.#passed) return;
    this.#passed = revision;
    this.#waiters.reached(revision);
  }

  /**
   * Resolves true once every message up to `revision` has arrived (a message after it, or the
   * publisher's answer at it or later), false after `timeoutMs`; the publisher is asked for
   * progress meanwhile.
   */
  async passed(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.#passed >= revision) return true;
    this.#waiting++;
    this.#askForProgress();
    try {
      return await this.#waiters.wait(revision, timeoutMs);
    } finally {
      if (--this.#waiting === 0) {
        clearInterval(this.#asking);
        this.#asking = undefined;
      }
    }
  }

  /** Asks now (a new wait may be for a later revision), and every period while waits go on. */
  #askForProgress(): void {
    const ask = (): void => {
      try {
        this.#nats.publish(progressRequestSubject);
      } catch {
        // Closed or draining: the publisher's own interval still brings progress.
      }
    };
    ask();
    this.#asking ??= setInterval(ask, progressRequestPeriodMs);
  }
}
