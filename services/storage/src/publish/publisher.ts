// The publisher: while this replica leads, one etcd watch over /registry/ turns every change
// into a message on the NATS subject of its type, chained per subject by prevRevision, and
// publishes progress so that gateways can send bookmarks and notice a lost last message.
//
// Progress is proven, not guessed: every interval the publisher writes the checkpoint key
// (inside the watched range, ignored as a type) holding the revision through which it has
// published every change (a key of no type passed over); when the watch delivers that write at
// revision C, every change before C has been published.
// A new leader resumes after the checkpoint value, so a takeover re-publishes rather than
// loses; subscribers drop what they already have by revision. A term that finds no checkpoint
// (the first one over a fresh etcd) writes one at the revision it starts after before it
// publishes anything: otherwise a leader lost before its first interval left no trace, and its
// successor, starting from the then-current revision, skipped every change made in between (the
// changes written while etcd restarted, seen as a publisher that never resumed). This is how an
// etcd watcher resumes in clientv3: from the last revision it delivered plus one, never from now.
//
// A gateway whose consistent read waits for a quiet type asks for progress on
// progressRequestSubject (as upstream's cacher asks etcd for a progress notify): the checkpoint
// is then written at once, one write at a time (requests meanwhile make one more write after it),
// rather than at the next interval.
//
// The publisher is also where consistent reads get their revision (docs/architecture.md,
// "Consistent reads"). After each batch it hands to NATS it announces, on publishedSubject, the
// revision through which every change is handed on; storage answers a write once that has
// reached the write's revision. A gateway asks on revisionRequestSubject and gets that revision,
// on the connection the changes went out on and after them. The publisher answers only while
//   - it surely holds the leader lease (a predecessor, fenced the same way, has stopped
//     announcing and answering before this term could begin), and
//   - a quorum read of etcd's revision, sent at most answerLagMs ago, is published through: a
//     write that storage answered without an announcement waited longer than that (storage's
//     publish wait) after it was committed, so it is covered too.
// Otherwise it answers empty and the gateway reads etcd's revision through storage.
import { randomUUID } from 'node:crypto';
import type { Etcd3 } from 'etcd3';
import type { NatsConnection } from 'nats';
import type { Logger } from '@orch/component-base/logs';
import {
  encodeChangeMessage,
  encodeWatchMessage,
  progressRequestSubject,
  publishedSubject,
  revisionRequestSubject,
  subjectForKey,
} from '@orch/apimachinery/watch';
import type { WatchMessage } from '@orch/apimachinery/watch';
import { toHistoryEvent } from '../etcd3/history.js';
import { WatchCompactedError, openRawWatch } from '../etcd3/raw-watch.js';
import type { RawWatch } from '../etcd3/raw-watch.js';

export const checkpointKey = '/registry/~publisher-checkpoint';
const watchedRange = { key: '/registry/', rangeEnd: '/registry0' };

export interface PublisherOptions {
  progressIntervalMs: number;
  /** Subjects to announce progress on even before their first change (the known types). */
  knownSubjects: string[];
  /** After each message, with the revision it carries (a change's, or progress up to). */
  onPublished?: (subject: string, type: WatchMessage['type'], revision: number) => void;
  /** Whether this replica surely still holds the leader lease (LeaderElector.holdsLease). */
  holdsLease?: () => boolean;
  /** How often etcd's revision is read to show the publisher is not behind it (ms). */
  confirmIntervalMs?: number;
  /** How old that proof may be for a revision request to be answered (ms); below storage's publish wait. */
  answerLagMs?: number;
  /**
   * With each announcement, in this process: the replica's own writes need not wait for it to
   * come back from NATS (the changes are handed to the connection any answer goes out on).
   */
  onAnnounced?: (revision: number) => void;
  /** After each revision request, with whether it was answered. */
  onRevisionRequest?: (answered: boolean) => void;
}

const noAnswer = new Uint8Array(0);

export class Publisher {
  readonly #etcd: Etcd3;
  readonly #nats: NatsConnection;
  readonly #log: Logger;
  readonly #opts: PublisherOptions;
  /** The last change revision published per subject in this term (0: none yet). */
  readonly #lastBySubject = new Map<string, number>();
  /** The highest revision of the watch's events seen (published, progress, or not a type's). */
  #handled = 0;
  /**
   * The revision through which every change is handed to NATS (#handled at the last flush): what
   * the checkpoint holds, what is announced, and what revision requests are answered with.
   */
  #flushedThrough = 0;
  /** The revision last announced on publishedSubject. */
  #announced = 0;
  /** When (performance.now()) the latest etcd revision read this term is published through was sent. */
  #confirmedAt = -Infinity;
  /** etcd revision reads not yet published through, oldest first; and whether one is in flight. */
  #confirms: { at: number; revision: number }[] = [];
  #confirming = false;
  /** When (performance.now()) the watch last delivered a batch. */
  #batchAt = -Infinity;
  /**
   * False once this term skipped history (behind compaction): a subscriber learns of the skip
   * only from the next message on each subject, so an answer could claim changes it never got.
   * Gateways then read etcd's revision through storage until the next term.
   */
  #vouches = true;
  #stopped = false;
  #watchClose: (() => void) | undefined;
  /** The checkpoint write in flight, and whether another was asked for meanwhile. */
  #checkpointing: Promise<void> | undefined;
  #checkpointAgain = false;
  /** Whether run() is between its start and its end (checkpoints are written only then). */
  #running = false;
  /**
   * Messages handed to NATS together at the end of this turn of the event loop (#flush): the
   * changes of every watch response that arrived in one turn go out in one write to NATS, not
   * one each (under creates, storage wrote to NATS once per create, etcd's responses on the
   * watch stream arriving one at a time). #flushedThrough counts a message once it is handed on.
   */
  #outbox: {
    subject: string;
    message: Uint8Array;
    type: WatchMessage['type'];
    revision: number;
  }[] = [];
  #flushing: NodeJS.Immediate | undefined;
  /** Names one unbroken run of publishing: subscribers treat a new epoch as a gap to repair. */
  epoch = randomUUID();

  constructor(etcd: Etcd3, nats: NatsConnection, log: Logger, opts: PublisherOptions) {
    this.#etcd = etcd;
    this.#nats = nats;
    this.#log = log;
    this.#opts = opts;
    for (const s of opts.knownSubjects) this.#lastBySubject.set(s, 0);
  }

  /** Publishes until stop() or a failure; resolves when stopped, rejects on failure. */
  async run(): Promise<void> {
    let start = await this.#resumeRevision();
    let watch: RawWatch = await openRawWatch(this.#etcd, { ...watchedRange, startRevision: start });
    this.#watchClose = () => watch.close();
    this.#handled = this.#flushedThrough = start - 1;
    this.#log.info('publishing changes', { fromRevision: start, epoch: this.epoch });
    this.#running = true;
    const ticker = setInterval(() => this.#checkpoint(), this.#opts.progressIntervalMs);
    const confirmer = setInterval(() => this.#confirm(), this.#opts.confirmIntervalMs ?? 100);
    this.#confirm();
    const requests = this.#nats.subscribe(progressRequestSubject, {
      callback: () => this.#checkpoint(),
    });
    const revisionRequests = this.#nats.subscribe(revisionRequestSubject, {
      callback: (_err, msg) => {
        const answer = this.#vouchedRevision();
        this.#opts.onRevisionRequest?.(answer !== undefined);
        msg.respond(answer === undefined ? noAnswer : Buffer.from(String(answer)));
      },
    });
    try {
      for (;;) {
        let batch;
        try {
          batch = await watch.next();
        } catch (err) {
          if (this.#stopped) return;
          if (err instanceof WatchCompactedError) {
            // History we had not published is gone: go on from the oldest revision etcd still
            // has, under a new epoch, so that every subscriber sees the break (the chain alone
            // would hide it), repairs from storage, gets 410 where history is gone, and relists.
            this.#log.error(
              'publisher fell behind compaction; going on from the compacted revision under a new epoch',
              { err }
            );
            start = err.compactRevision;
            this.epoch = randomUUID();
            for (const s of this.#lastBySubject.keys()) this.#lastBySubject.set(s, 0);
            this.#handled = this.#flushedThrough = Math.max(this.#handled, start - 1);
            this.#vouches = false;
            watch = await openRawWatch(this.#etcd, { ...watchedRange, startRevision: start });
            this.#watchClose = () => watch.close();
            continue;
          }
          throw err;
        }
        this.#batchAt = performance.now();
        for (const e of batch.events) {
          this.#handled = Math.max(this.#handled, Number(e.kv.mod_revision));
          const key = e.kv.key.toString('latin1');
          if (key === checkpointKey) {
            this.#publishProgress(Number(e.kv.mod_revision));
            continue;
          }
          const subject = subjectForKey(key);
          const ev = subject ? toHistoryEvent(e) : undefined;
          if (!subject || !ev) continue;
          // The objects go out as etcd gave them (resourceVersion spliced in), not parsed.
          const head = {
            type: ev.type,
            key,
            revision: ev.revision,
            prevRevision: this.#lastBySubject.get(subject) ?? 0,
            epoch: this.epoch,
          };
          const message = encodeChangeMessage(head, ev.object, ev.prevObject);
          const maxPayload = this.#nats.info?.max_payload ?? Infinity;
          if (message.length <= maxPayload) {
            this.#send(subject, message, ev.type, ev.revision);
          } else {
            // Too large for NATS (the object and the one before it): publishing it would fail
            // the publisher on every term. A marker goes in its place, a progress at its
            // revision whose chain already points at it: every subscriber sees the gap at once
            // and repairs it from storage's History, which has no such limit. Sent in the
            // change's place in the stream, so the whole stream passing this revision (the
            // proof of a consistent read from a cache) cannot come before the gap is seen.
            this.#log.warn('change too large to publish; subscribers repair it from history', {
              key,
              revision: ev.revision,
              bytes: message.length,
              maxPayload,
            });
            const marker = { revision: ev.revision, prevRevision: ev.revision };
            this.#publish(subject, { type: 'PROGRESS', ...marker, epoch: this.epoch });
          }
          this.#lastBySubject.set(subject, ev.revision);
        }
        // Announced at the flush even when nothing of it is published (a key of no type).
        this.#flushing ??= setImmediate(() => this.#flush());
      }
    } finally {
      this.#running = false;
      clearInterval(ticker);
      clearInterval(confirmer);
      requests.unsubscribe();
      revisionRequests.unsubscribe();
      watch.close();
    }
  }

  /**
   * The revision this term publishes from: after the checkpoint; without one, after the current
   * revision, written as the checkpoint first so that a successor resumes there too.
   */
  async #resumeRevision(): Promise<number> {
    const key = Buffer.from(checkpointKey);
    const checkpoint = await this.#etcd.kv.range({ key });
    const value = Number(checkpoint.kvs[0]?.value.toString() ?? '0');
    if (value > 0) return value + 1;
    const current = Number(checkpoint.header.revision);
    await this.#etcd.kv.put({ key, value: Buffer.from(String(current)) });
    return current + 1;
  }

  stop(): void {
    this.#stopped = true;
    this.#watchClose?.();
    // What this term has not handed on is not sent after it: its successor resumes from the
    // checkpoint, which counts only what was.
    clearImmediate(this.#flushing);
    this.#flushing = undefined;
    this.#outbox = [];
  }

  #publish(subject: string, m: WatchMessage): void {
    this.#send(subject, encodeWatchMessage(m), m.type, m.revision);
  }

  #send(subject: string, message: Uint8Array, type: WatchMessage['type'], revision: number): void {
    this.#outbox.push({ subject, message, type, revision });
    this.#flushing ??= setImmediate(() => this.#flush());
  }

  /** Hands the outbox to NATS, in order, then announces the revision published through. */
  #flush(): void {
    this.#flushing = undefined;
    const out = this.#outbox;
    this.#outbox = [];
    for (const m of out) {
      this.#nats.publish(m.subject, m.message);
      this.#opts.onPublished?.(m.subject, m.type, m.revision);
    }
    this.#flushedThrough = this.#handled;
    if (this.#flushedThrough > this.#announced && this.#leading()) {
      this.#announced = this.#flushedThrough;
      this.#nats.publish(publishedSubject, Buffer.from(String(this.#announced)));
      this.#opts.onAnnounced?.(this.#announced);
    }
    this.#settleConfirms();
  }

  #leading(): boolean {
    return this.#opts.holdsLease?.() ?? true;
  }

  /** The revision a consistent read may wait for, or undefined when it cannot be vouched for. */
  #vouchedRevision(): number | undefined {
    if (!this.#running || this.#stopped || !this.#vouches || !this.#leading()) return undefined;
    const lag = performance.now() - this.#confirmedAt;
    return lag <= (this.#opts.answerLagMs ?? 500) ? this.#flushedThrough : undefined;
  }

  /**
   * Reads etcd's revision (a quorum read), to be published through. A read not published through
   * by the next tick, with no watch event since it was sent, asks for a checkpoint: a revision
   * outside the watched range (an election key) is passed only by a write inside it. (A
   * publisher behind on events is not asked to write more.)
   */
  #confirm(): void {
    if (this.#stopped || !this.#running || this.#confirming) return;
    const interval = this.#opts.confirmIntervalMs ?? 100;
    const oldest = this.#confirms[0];
    const at = performance.now();
    if (oldest && at - oldest.at > interval && this.#batchAt < oldest.at) this.#checkpoint();
    this.#confirming = true;
    this.#etcd.kv
      .range({ key: Buffer.from(checkpointKey), keys_only: true })
      .then(
        (res) => {
          this.#confirms.push({ at, revision: Number(res.header.revision) });
          if (this.#confirms.length > 64) this.#confirms.shift();
          this.#settleConfirms();
        },
        (err: unknown) => this.#log.debug('revision read failed', { err })
      )
      .finally(() => (this.#confirming = false));
  }

  #settleConfirms(): void {
    while (this.#confirms[0] && this.#confirms[0].revision <= this.#flushedThrough) {
      this.#confirmedAt = Math.max(this.#confirmedAt, this.#confirms.shift()!.at);
    }
  }

  #publishProgress(revision: number): void {
    for (const [subject, last] of this.#lastBySubject) {
      this.#publish(subject, { type: 'PROGRESS', revision, prevRevision: last, epoch: this.epoch });
    }
  }

  /** Writes the checkpoint now, or once more after the write in flight. */
  #checkpoint(): void {
    if (this.#stopped || !this.#running) return;
    if (this.#checkpointing) {
      this.#checkpointAgain = true;
      return;
    }
    this.#checkpointing = this.#writeCheckpoint().finally(() => {
      this.#checkpointing = undefined;
      if (!this.#checkpointAgain) return;
      this.#checkpointAgain = false;
      this.#checkpoint();
    });
  }

  async #writeCheckpoint(): Promise<void> {
    try {
      await this.#etcd.kv.put({
        key: Buffer.from(checkpointKey),
        value: Buffer.from(String(this.#flushedThrough)),
      });
    } catch (err) {
      this.#log.warn('checkpoint write failed', { err });
    }
  }
}
