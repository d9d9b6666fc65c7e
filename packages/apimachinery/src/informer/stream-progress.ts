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
import type { NatsConnection, Subscription } from 'nats';
import { watchSubjectRoot } from '../watch/index.js';
import { RevisionWaiters } from './revision-waiters.js';

const revisionField = /"revision":(\d+)/;

export interface StreamProgressOptions {
  /** How long after a disconnect the stream is not trusted (twice the publisher's progress interval). */
  distrustAfterDisconnectMs?: number;
}

export class StreamProgress {
  readonly #nats: NatsConnection;
  readonly #distrustMs: number;
  #sub: Subscription | undefined;
  #revision = 0;
  #disconnectedAt = 0;
  #connected = true;
  readonly #waiters = new RevisionWaiters();

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
        this.#waiters.reached(r);
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
  }

  /** Resolves true once a message at `revision` or later has arrived, false after `timeoutMs`. */
  reached(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.#revision >= revision) return Promise.resolve(true);
    return this.#waiters.wait(revision, timeoutMs);
  }
}
