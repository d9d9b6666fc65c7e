// One NATS subscription for one resource type, shared by every watcher of that type in this
// gateway. Messages are processed one at a time, in order. The per-subject prevRevision chain
// (and the publisher's epoch) reveal a lost message; the gap is then repaired from storage's
// history replay before anything newer is delivered, so no watcher misses or duplicates an
// event. Only when that history is gone do the watchers get a 410 and end.
import type { NatsConnection, Subscription } from 'nats';
import { isGone, toStatusError } from '@orch/apimachinery/errors';
import type { StorageClient } from '@orch/apimachinery/grpc';
import { decodeWatchMessage } from '@orch/apimachinery/watch';
import type { ChangeMessage, WatchMessage } from '@orch/apimachinery/watch';
import type { Logger } from '@orch/component-base/logs';
import type { Status } from '@orch/apimachinery/errors';

export interface Change {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  revision: number;
  object: Record<string, unknown>;
  prevObject?: Record<string, unknown>;
}

/** What a feed needs of a watcher. */
export interface FeedListener {
  change(c: Change): void;
  progress(revision: number): void;
  fail(status: Status): void;
}

export interface FeedHooks {
  /** Test hook: drop a message as if NATS had lost it. */
  dropMessage?: (m: WatchMessage) => boolean;
  onFanout?: (n: number) => void;
  onGapRepaired?: (events: number) => void;
}

const bufferSize = 2000;

export class TypeFeed {
  readonly subject: string;
  readonly prefix: string;
  readonly #storage: StorageClient;
  readonly #log: Logger;
  readonly #hooks: FeedHooks;
  readonly #listeners = new Set<FeedListener>();
  #sub: Subscription | undefined;
  #chain: Promise<void> = Promise.resolve();
  #epoch = '';
  #lastRevision = 0;
  #synced = false;
  /** Recent changes; every change with revision > #bufferStart is in it. */
  readonly #buffer: Change[] = [];
  #bufferStart = Number.MAX_SAFE_INTEGER;
  /** History replays in flight that extend the buffer back to `from`. */
  readonly #backfills: { from: number; done: Promise<void> }[] = [];

  constructor(
    subject: string,
    prefix: string,
    storage: StorageClient,
    log: Logger,
    hooks: FeedHooks = {}
  ) {
    this.subject = subject;
    this.prefix = prefix;
    this.#storage = storage;
    this.#log = log.child({ subject });
    this.#hooks = hooks;
  }

  start(nats: NatsConnection): void {
    this.#sub = nats.subscribe(this.subject, {
      callback: (err, msg) => {
        if (err) return this.#log.warn('subscription error', { err });
        const m = decodeWatchMessage(msg.data);
        if (this.#hooks.dropMessage?.(m)) return;
        this.#chain = this.#chain
          .then(() => this.#process(m))
          .catch((e: unknown) => this.#log.error('feed failed', { err: e }));
      },
    });
  }

  stop(): void {
    this.#sub?.unsubscribe();
  }

  get synced(): boolean {
    return this.#synced;
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  /**
   * Adds a listener that has every change after `fromRevision`: from the buffer when it reaches
   * back that far, otherwise from storage's history. Live changes arriving meanwhile are held
   * and delivered after, without duplicates.
   */
  async subscribe(listener: FeedListener, fromRevision: number): Promise<() => void> {
    if (!this.#covers(fromRevision)) {
      // One shared replay fills the buffer for every watcher starting about now (a hundred
      // clients reconnecting after a list must not mean a hundred history replays). If it
      // fails, the watcher's own replay below reports why (410 when compacted).
      await this.#backfill(fromRevision).catch((err: unknown) =>
        this.#log.debug('backfill failed', { err })
      );
    }
    const held: Change[] = [];
    let catchingUp = true;
    let last = fromRevision;
    const gate: FeedListener = {
      change: (c) =>
        catchingUp ? held.push(c) : c.revision > last && ((last = c.revision), listener.change(c)),
      progress: (r) => !catchingUp && r >= last && ((last = r), listener.progress(r)),
      fail: (s) => listener.fail(s),
    };
    this.#listeners.add(gate);
    const remove = (): void => void this.#listeners.delete(gate);
    try {
      if (this.#covers(fromRevision)) {
        for (const c of this.#buffer) {
          if (c.revision <= last) continue;
          last = c.revision;
          listener.change(c);
        }
      } else {
        await this.#storage.history(this.prefix, fromRevision, (e) => {
          if (e.revision > last) {
            last = e.revision;
            const c: Change = { type: e.type, revision: e.revision, object: e.object };
            if (e.prevObject) c.prevObject = e.prevObject;
            listener.change(c);
          }
        });
      }
    } catch (err) {
      remove();
      throw err;
    }
    catchingUp = false;
    for (const c of held) {
      if (c.revision <= last) continue;
      last = c.revision;
      listener.change(c);
    }
    return remove;
  }

  #covers(fromRevision: number): boolean {
    return this.#synced && fromRevision >= this.#bufferStart;
  }

  /**
   * Extends the buffer back to `fromRevision` with one history replay, shared by every
   * concurrent caller it covers. The replay is merged between two NATS messages (on the
   * chain), so the buffer stays one contiguous run of changes.
   */
  #backfill(fromRevision: number): Promise<void> {
    const running = this.#backfills.find((b) => b.from <= fromRevision);
    if (running) return running.done;
    const b = { from: fromRevision, done: this.#runBackfill(fromRevision) };
    this.#backfills.push(b);
    const forget = (): void => void this.#backfills.splice(this.#backfills.indexOf(b), 1);
    b.done.then(forget, forget);
    return b.done;
  }

  async #runBackfill(fromRevision: number): Promise<void> {
    const replayed: Change[] = [];
    let cursor = fromRevision;
    for (;;) {
      const until = await this.#storage.history(this.prefix, cursor, (e) => {
        const c: Change = { type: e.type, revision: e.revision, object: e.object };
        if (e.prevObject) c.prevObject = e.prevObject;
        replayed.push(c);
      });
      const merged = await this.#onChain(() => this.#mergeReplay(fromRevision, until, replayed));
      if (merged) return;
      cursor = until; // live changes started after the replay ended: replay the space between
    }
  }

  /** Runs fn after the message being processed, before the next. */
  #onChain<T>(fn: () => T): Promise<T> {
    const result = this.#chain.then(fn);
    this.#chain = result.then(
      () => undefined,
      () => undefined
    );
    return result;
  }

  /** Merges the changes (from, until] into the buffer; false when live changes start after `until`. */
  #mergeReplay(from: number, until: number, replayed: Change[]): boolean {
    if (this.#covers(from)) return true;
    if (!this.#synced) {
      // No live message yet: the replay is the buffer, and the first message is checked
      // against its end like any other.
      this.#buffer.splice(0, this.#buffer.length, ...replayed);
      this.#bufferStart = from;
      this.#lastRevision = until;
      this.#epoch = '';
      this.#synced = true;
      return true;
    }
    if (until < this.#bufferStart) return false;
    const older = replayed.filter((c) => c.revision <= this.#bufferStart);
    this.#buffer.unshift(...older);
    this.#bufferStart = from;
    return true;
  }

  async #process(m: WatchMessage): Promise<void> {
    if (!this.#synced) {
      this.#epoch = m.epoch;
      this.#synced = true;
      this.#lastRevision = m.type === 'PROGRESS' ? m.revision : m.revision - 1;
      this.#bufferStart = this.#lastRevision;
    } else if (this.#epoch === '' && m.prevRevision <= this.#lastRevision) {
      this.#epoch = m.epoch; // the first message after a replay that synced this feed
    } else if (m.epoch !== this.#epoch || m.prevRevision > this.#lastRevision) {
      this.#epoch = m.epoch;
      await this.#repair(m.revision);
    }
    if (m.type === 'PROGRESS') {
      if (m.revision > this.#lastRevision) this.#lastRevision = m.revision;
      for (const l of this.#listeners) l.progress(m.revision);
      return;
    }
    this.#deliver(m);
  }

  #deliver(m: ChangeMessage | Change): void {
    if (m.revision <= this.#lastRevision) return;
    this.#lastRevision = m.revision;
    const c: Change = { type: m.type, revision: m.revision, object: m.object };
    if (m.prevObject) c.prevObject = m.prevObject;
    this.#buffer.push(c);
    while (this.#buffer.length > bufferSize)
      this.#bufferStart = this.#buffer.shift()?.revision ?? this.#bufferStart;
    for (const l of this.#listeners) l.change(c);
    this.#hooks.onFanout?.(this.#listeners.size);
  }

  /** Replays what was lost between the last delivered revision and now from storage. */
  async #repair(seenRevision: number): Promise<void> {
    const from = this.#lastRevision;
    let n = 0;
    try {
      const until = await this.#storage.history(this.prefix, from, (e) => {
        n++;
        const c: Change = { type: e.type, revision: e.revision, object: e.object };
        if (e.prevObject) c.prevObject = e.prevObject;
        this.#deliver(c);
      });
      if (until > this.#lastRevision) this.#lastRevision = until;
      this.#log.info('repaired a gap from storage history', {
        from,
        seen: seenRevision,
        events: n,
      });
      this.#hooks.onGapRepaired?.(n);
    } catch (err) {
      const se = toStatusError(err);
      this.#log.error('could not repair a gap; ending the watches of this type', {
        err: se.message,
      });
      for (const l of this.#listeners)
        l.fail(isGone(se) ? se.status : { ...se.status, code: 410, reason: 'Expired' });
      this.#listeners.clear();
      this.#buffer.length = 0;
      this.#lastRevision = seenRevision - 1;
      this.#bufferStart = this.#lastRevision;
    }
  }
}
