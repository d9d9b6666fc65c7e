// The ListerWatcher of the suite's own plumbing (client-go cache.ListerWatcher over etcd): a
// paged consistent list from the storage service, and every change from the NATS subject of
// the type. The per-subject prevRevision chain and the publisher's epoch reveal a lost message;
// the gap is repaired from storage's history replay before anything newer is delivered, and
// when that history is gone the watch fails with 410 (the Reflector lists again). Every watch
// starts with a history replay from its revision, so nothing between the list (or the last
// delivered change) and the subscription is missed. The services' informers and the gateway's
// watch cache both read through it: it is the one place that follows the chain.
import type { NatsConnection, Subscription } from 'nats';
import { newResourceExpired, toStatusError } from '../errors/index.js';
import type { DecodedHistoryEvent, ListOptions, ListResponse } from '../storage/index.js';
import { decodeWatchMessage, subjectForKey } from '../watch/index.js';
import type { WatchMessage } from '../watch/index.js';
import type { ChangeType, ListerWatcher, WatchSink } from './interfaces.js';
import type { ReflectorLogger } from './reflector.js';
import { RevisionCursor } from './revision-cursor.js';
import type { StreamProgress } from './stream-progress.js';

type Obj = Record<string, unknown>;

/** What the source needs of a storage client (every StorageInterface satisfies it). */
export interface InformerStorage {
  list(req: ListOptions): Promise<ListResponse>;
  history(
    prefix: string,
    afterRevision: number,
    onEvent: (e: DecodedHistoryEvent) => void
  ): Promise<number>;
}

export interface StorageListerWatcherOptions {
  storage: InformerStorage;
  nats: NatsConnection;
  /** Storage key prefix of the type, `/registry/<group>/<resource>/`. */
  prefix: string;
  log?: ReflectorLogger;
  /** Page size of the list (0: everything in one call). */
  pageSize?: number;
  /** Test hook: drop a message as if NATS had lost it. */
  dropMessage?: (m: WatchMessage) => boolean;
  /** Called after a gap in the NATS stream was repaired from history, with the events replayed. */
  onRepair?: (events: number) => void;
  /** The whole stream's progress on the same connection, for requestProgress(). */
  streamProgress?: StreamProgress;
}

const silent: ReflectorLogger = { info: () => undefined, warn: () => undefined };

/** One running watch: its serialized steps, and progress proven by the whole stream. */
interface Session {
  enqueue(step: () => Promise<void>): Promise<void>;
  /** Reports progress up to `revision` (every message up to it has arrived). */
  streamProgress(revision: number): void;
}

export class StorageListerWatcher implements ListerWatcher {
  readonly prefix: string;
  readonly subject: string;
  readonly #storage: InformerStorage;
  readonly #nats: NatsConnection;
  readonly #log: ReflectorLogger;
  readonly #pageSize: number;
  readonly #dropMessage: ((m: WatchMessage) => boolean) | undefined;
  readonly #onRepair: ((events: number) => void) | undefined;
  readonly #stream: StreamProgress | undefined;
  #session: Session | undefined;

  constructor(opts: StorageListerWatcherOptions) {
    this.prefix = opts.prefix;
    const subject = subjectForKey(`${opts.prefix}x`);
    if (!subject) throw new Error(`no watch subject for prefix ${opts.prefix}`);
    this.subject = subject;
    this.#storage = opts.storage;
    this.#nats = opts.nats;
    this.#log = opts.log ?? silent;
    this.#pageSize = opts.pageSize ?? 500;
    this.#dropMessage = opts.dropMessage;
    this.#onRepair = opts.onRepair;
    this.#stream = opts.streamProgress;
  }

  async list(signal: AbortSignal): Promise<{ items: Obj[]; revision: number }> {
    const items: Obj[] = [];
    let revision = 0;
    let continueToken = '';
    do {
      if (signal.aborted) break;
      const page = await this.#storage.list({
        prefix: this.prefix,
        consistency: 'MOST_RECENT',
        limit: this.#pageSize,
        continueToken,
      });
      for (const o of page.items) items.push(o);
      revision = page.revision;
      continueToken = page.continueToken;
    } while (continueToken);
    return { items, revision };
  }

  watch(fromRevision: number, sink: WatchSink, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      /** What the chain of this subject has shown: changes received, and real progress. */
      const cursor = new RevisionCursor(fromRevision);
      /** Progress reported from the whole stream (not from this subject's chain). */
      let streamed = 0;
      let epoch = '';
      let chain: Promise<void> = Promise.resolve();
      let done = false;
      // Assigned once subscribed; finish() may run before (an aborted signal).
      // eslint-disable-next-line prefer-const
      let sub: Subscription | undefined;
      const finish = (err?: unknown): void => {
        if (done) return;
        done = true;
        sub?.unsubscribe();
        signal.removeEventListener('abort', onAbort);
        if (this.#session === session) this.#session = undefined;
        if (err === undefined) resolve();
        else reject(err instanceof Error ? err : toStatusError(err));
      };
      const onAbort = (): void => finish();
      /** One change, unless delivered already; a change the stream's progress passed is a loss. */
      const deliver = (
        type: ChangeType,
        key: string,
        object: Obj,
        revision: number,
        prevObject?: Obj
      ): void => {
        if (done || !cursor.accept(revision, key)) return;
        if (revision <= streamed) {
          // Progress was reported past this change, which had been lost: the state handed out
          // since may lack it. Only a new list is safe.
          throw newResourceExpired(
            `a change at revision ${revision} of ${this.prefix} arrived after progress to ${streamed}; listing again`
          );
        }
        sink.change(type, object, revision, prevObject);
      };
      /**
       * Replays storage's history after the cursor; throws (410 when gone). Returns the events
       * it held, and of those the ones before `before` (changes a message at `before` came after).
       */
      const replay = async (before = Infinity): Promise<{ n: number; missed: number }> => {
        let n = 0;
        let missed = 0;
        let failed: unknown;
        const until = await this.#storage.history(this.prefix, cursor.from, (e) => {
          if (failed) return;
          n++;
          if (e.revision < before) missed++;
          try {
            deliver(e.type, e.key, e.object, e.revision, e.prevObject);
          } catch (err) {
            failed = err;
          }
        });
        if (failed) throw failed;
        if (!done && until >= cursor.revision) {
          cursor.complete(until);
          if (until > streamed) sink.progress(until);
        }
        return { n, missed };
      };
      const session: Session = {
        enqueue: (step) => {
          const run = chain.then(() => (done ? undefined : step()));
          chain = run.catch(finish);
          return run;
        },
        streamProgress: (revision) => {
          if (revision <= cursor.revision || revision <= streamed) return;
          streamed = revision;
          sink.progress(revision);
        },
      };
      const process = async (m: WatchMessage): Promise<void> => {
        // The first message of a session is trusted only right after what was replayed: its
        // epoch may be a new publisher's, whose chain cannot reveal what its predecessor sent
        // after the replay and NATS lost.
        const first = epoch === '';
        if (first) epoch = m.epoch;
        const gap = m.epoch !== epoch || m.prevRevision > cursor.revision;
        if (gap || (first && m.revision > cursor.revision + 1)) {
          const from = cursor.revision;
          epoch = m.epoch;
          const { n, missed } = await replay(m.revision);
          // A check of the first message is a repair only when it found a change before that
          // message: the replay also holds the message's own change, and any after it, which
          // nothing lost (another prefix's writes in between make the revisions skip).
          if (gap || missed > 0) {
            this.#log.info('repaired a gap in the change stream from storage history', {
              prefix: this.prefix,
              from,
              seen: m.revision,
              events: n,
            });
            this.#onRepair?.(n);
          }
        }
        if (done) return;
        if (m.type === 'PROGRESS') {
          if (m.revision < cursor.revision) return;
          cursor.complete(m.revision);
          if (m.revision > streamed) sink.progress(m.revision);
          return;
        }
        deliver(m.type, m.key, m.object, m.revision, m.prevObject);
      };
      if (signal.aborted) return finish();
      signal.addEventListener('abort', onAbort, { once: true });
      this.#session = session;
      sub = this.#nats.subscribe(this.subject, {
        callback: (err, msg) => {
          if (err) return finish(err);
          const m = decodeWatchMessage(msg.data);
          if (this.#dropMessage?.(m)) return;
          void session.enqueue(() => process(m)).catch(() => undefined);
        },
      });
      // First, after the subscription is in place: what happened since fromRevision. Messages
      // arriving meanwhile wait on the chain and are dropped by revision when replayed already.
      void session
        .enqueue(async () => {
          await this.#nats.flush();
          await replay();
        })
        .catch(() => undefined);
      void sub.closed.then(() => finish(new Error(`subscription to ${this.subject} closed`)));
    });
  }

  /**
   * Progress up to `revision` without a write: once the whole stream has passed it (so every
   * message of this type up to it has arrived), it is reported after those messages. False when
   * no watch runs, the stream is not trusted (a recent disconnect) or does not pass it in time.
   */
  async requestProgress(revision: number, timeoutMs: number): Promise<boolean> {
    const stream = this.#stream;
    const s = this.#session;
    if (!stream || !s || !stream.trusted) return false;
    // Past the revision, not at it: NATS sends each subscription its own copy of a message, and
    // this type's copy of the message at `revision` may come after the stream's copy (the
    // server's order between two subscriptions, or a read boundary between the two frames).
    // The next message of the stream comes after both, so once it has arrived this type's
    // message at `revision`, if any, is on the chain ahead of the progress enqueued here.
    if (!(await stream.passed(revision, timeoutMs))) return false;
    if (this.#session !== s) return false;
    await s.enqueue(async () => s.streamProgress(revision));
    return true;
  }
}
