// An in-memory storage for unit tests: the StorageInterface the gateway's Store, caches and
// allocators take, answering as the storage service over etcd does (services/storage
// etcd3/store.ts and history.ts), so a test of the Store needs no process. A contract test runs
// one scenario against both (memory-storage-contract.test.ts here and the storage service's
// memory-storage-contract.test.ts) so that the two cannot drift.
//
// As etcd: one revision for the whole store, raised by every write; each key keeps its versions,
// so reads at an older revision (exact lists, continue tokens) see the snapshot of their
// revision until compact() drops it. Values are stored in the service's format
// (encodeForStorage) and read back with their resourceVersion (withResourceVersion); errors are
// the service's Status errors, as the gRPC client rebuilds them. A history replay writes the
// same sentinel key the service writes, so revisions advance alike.
import { StatusError } from '@orch/apimachinery/errors';
import {
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newInternalError,
  newNotFound,
  newRequestEntityTooLarge,
  newResourceExpired,
  newTooLargeResourceVersion,
} from '@orch/apimachinery/errors';
import {
  decodeFromStorage,
  encodeForStorage,
  groupResourceOf,
  pagedList,
  isTypePrefix,
  prefixEnd,
  withResourceVersion,
} from '@orch/apimachinery/storage';
import type {
  Consistency,
  DecodedHistoryEvent,
  ListOptions,
  ListResponse,
  ListResult,
  Preconditions,
  StorageInterface,
} from '@orch/apimachinery/storage';

type Json = Record<string, unknown>;

export interface MemoryStorageOptions {
  /** Largest object accepted, in bytes (the storage service's default). */
  maxObjectBytes?: number;
  /** How long a read for a revision not reached yet waits before 504 (the service: 3 s). */
  revisionWaitMs?: number;
}

/** One version of a key: its value, or a deletion (value undefined). */
interface Version {
  modRevision: number;
  createRevision: number;
  value: Buffer | undefined;
}

/** A key as etcd's range answers it. */
interface KeyValue {
  key: string;
  value: Buffer;
  modRevision: number;
  createRevision: number;
}

const conflictMessage =
  'the object has been modified; please apply your changes to the latest version and try again';

/** What etcd answers for a read of a revision it has not reached. */
const futureMessage = '11 OUT_OF_RANGE: etcdserver: mvcc: required revision is a future revision';

export class MemoryStorage implements StorageInterface {
  readonly #maxObjectBytes: number;
  readonly #revisionWaitMs: number;
  /** A fresh etcd cluster is at revision 1. */
  #revision = 1;
  #compacted = 0;
  /** Every version of every key, oldest first. */
  readonly #keys = new Map<string, Version[]>();
  /** Keys in byte order, as etcd ranges them (sorted on demand). */
  #sorted: string[] | undefined;

  constructor(opts: MemoryStorageOptions = {}) {
    this.#maxObjectBytes = opts.maxObjectBytes ?? 1_572_864 - 16 * 1024;
    this.#revisionWaitMs = opts.revisionWaitMs ?? 3000;
  }

  /** Drops the versions older than revision, as etcd's compaction (the storage compactor). */
  compact(revision: number): void {
    if (revision > this.#revision) throw new Error(`compact(${revision}): a future revision`);
    this.#compacted = Math.max(this.#compacted, revision);
  }

  currentRevision(): Promise<number> {
    return Promise.resolve(this.#revision);
  }

  async get(key: string, consistency: Consistency, revision = 0): Promise<Json> {
    return wire(async () => {
      if (consistency === 'NOT_OLDER_THAN' && revision > 0) await this.#waitForRevision(revision);
      const at = consistency === 'EXACT' ? revision : 0;
      this.#checkReadable(at, () => newResourceExpired(expiredMessage('get')));
      const kv = this.#at(key, at || this.#revision);
      if (!kv) {
        const gr = groupResourceOf(key);
        throw newNotFound(gr, gr.name);
      }
      return parse(withResourceVersion(kv.value, kv.modRevision));
    });
  }

  async list(req: ListOptions): Promise<ListResponse> {
    const res = await this.listRaw(req);
    return { ...res, items: res.items.map(parse) };
  }

  /** The storage service's EtcdStore.list, over the versions kept here. */
  async listRaw(opts: ListOptions): Promise<ListResult> {
    return wire(() =>
      pagedList(opts, {
        range: async (start, end, limit, revision, _serializable, expired) => {
          const at = revision || this.#revision;
          this.#checkReadable(at, expired);
          return { ...this.#range(start, end, limit, at), revision: at };
        },
        waitForRevision: (revision) => this.#waitForRevision(revision),
      })
    );
  }

  async create(key: string, object: Json): Promise<Json> {
    return wire(() => {
      const value = this.#encode(object);
      if (this.#at(key, this.#revision)) {
        const gr = groupResourceOf(key);
        throw newAlreadyExists(gr, gr.name);
      }
      return Promise.resolve(parse(withResourceVersion(value, this.#write(key, value))));
    });
  }

  async update(key: string, object: Json, pre: Preconditions): Promise<Json> {
    return wire(() => {
      const value = this.#encode(object);
      this.#checkPreconditions(key, pre);
      return Promise.resolve(parse(withResourceVersion(value, this.#write(key, value))));
    });
  }

  async delete(key: string, pre: Preconditions): Promise<{ object: Json; revision: number }> {
    return wire(() => {
      const prev = this.#checkPreconditions(key, pre);
      const deletedAt = this.#write(key, undefined);
      const object = parse(withResourceVersion(prev.value, deletedAt));
      return Promise.resolve({ object, revision: deletedAt });
    });
  }

  /**
   * The service's replayHistory: the sentinel key past the prefix is written first (a revision
   * of its own) and the changes under the prefix up to it are replayed, oldest first.
   */
  async history(
    prefix: string,
    afterRevision: number,
    onEvent: (e: DecodedHistoryEvent) => void
  ): Promise<number> {
    const events = await wire(() => {
      if (!isTypePrefix(prefix))
        throw newBadRequest(
          `history is kept per type: ${JSON.stringify(prefix)} is not /registry/<group>/<resource>/`
        );
      if (afterRevision + 1 < this.#compacted) {
        throw newResourceExpired(`too old resource version: ${afterRevision} (${this.#compacted})`);
      }
      const sentinel = prefixEnd(prefix);
      const until = this.#write(sentinel, Buffer.from(String(Date.now())));
      return Promise.resolve({ until, changes: this.#changes(prefix, sentinel, afterRevision) });
    });
    // Delivered after the call returned, as the gRPC stream's events arrive.
    await Promise.resolve();
    for (const e of events.changes) onEvent(e);
    return events.until;
  }

  /** The changes of keys in [prefix, end) after a revision, in revision order. */
  #changes(prefix: string, end: string, afterRevision: number): DecodedHistoryEvent[] {
    const out: { order: number; event: DecodedHistoryEvent }[] = [];
    for (const [key, versions] of this.#keys) {
      if (key < prefix || key >= end) continue;
      versions.forEach((v, i) => {
        if (v.modRevision <= afterRevision) return;
        const prev = versions[i - 1];
        const prevValue = prev?.value;
        if (v.value === undefined) {
          if (!prev || prevValue === undefined) return;
          out.push({
            order: v.modRevision,
            event: {
              type: 'DELETED',
              key,
              revision: v.modRevision,
              object: parse(withResourceVersion(prevValue, v.modRevision)),
              prevObject: parse(withResourceVersion(prevValue, prev.modRevision)),
            },
          });
          return;
        }
        const created = v.createRevision === v.modRevision;
        const event: DecodedHistoryEvent = {
          type: created ? 'ADDED' : 'MODIFIED',
          key,
          revision: v.modRevision,
          object: parse(withResourceVersion(v.value, v.modRevision)),
        };
        if (!created && prev && prevValue !== undefined)
          event.prevObject = parse(withResourceVersion(prevValue, prev.modRevision));
        out.push({ order: v.modRevision, event });
      });
    }
    return out.sort((a, b) => a.order - b.order).map((o) => o.event);
  }

  #encode(object: Json): Buffer {
    const value = encodeForStorage(Buffer.from(JSON.stringify(object)));
    if (value.length > this.#maxObjectBytes) {
      throw newRequestEntityTooLarge(
        `the object is ${value.length} bytes, over the ${this.#maxObjectBytes} bytes the store accepts`
      );
    }
    return value;
  }

  /** The key's current value when the preconditions hold; NotFound or Conflict otherwise. */
  #checkPreconditions(key: string, pre: Preconditions): KeyValue {
    const gr = groupResourceOf(key);
    const kv = this.#at(key, this.#revision);
    if (!kv) throw newNotFound(gr, gr.name);
    if (pre.revision && kv.modRevision !== pre.revision)
      throw newConflict(gr, gr.name, conflictMessage);
    if (pre.uid) {
      const current = decodeFromStorage(kv.value, kv.modRevision);
      const uid = (current['metadata'] as { uid?: string } | undefined)?.uid;
      if (uid !== pre.uid) {
        throw newConflict(
          gr,
          gr.name,
          `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${uid ?? ''}`
        );
      }
    }
    return kv;
  }

  /** Writes a value (undefined: a deletion) at the next revision; answers that revision. */
  #write(key: string, value: Buffer | undefined): number {
    const revision = ++this.#revision;
    let versions = this.#keys.get(key);
    if (!versions) {
      versions = [];
      this.#keys.set(key, versions);
      this.#sorted = undefined;
    }
    const live = this.#at(key, revision - 1);
    const createRevision = value === undefined ? 0 : (live?.createRevision ?? revision);
    versions.push({ modRevision: revision, createRevision, value });
    return revision;
  }

  /** The key's value at a revision, if it existed then. */
  #at(key: string, revision: number): KeyValue | undefined {
    const versions = this.#keys.get(key);
    if (!versions) return undefined;
    for (let i = versions.length - 1; i >= 0; i--) {
      const v = versions[i]!;
      if (v.modRevision > revision) continue;
      if (v.value === undefined) return undefined;
      return { key, value: v.value, modRevision: v.modRevision, createRevision: v.createRevision };
    }
    return undefined;
  }

  /** etcd's Range over [start, end) at a revision: the first `limit` keys and how many there are. */
  #range(
    start: string,
    end: string,
    limit: number,
    revision: number
  ): { kvs: KeyValue[]; count: number } {
    this.#sorted ??= [...this.#keys.keys()].sort((a, b) =>
      Buffer.compare(Buffer.from(a), Buffer.from(b))
    );
    const from = Buffer.from(start);
    const to = Buffer.from(end);
    const kvs: KeyValue[] = [];
    let count = 0;
    for (const key of this.#sorted) {
      const k = Buffer.from(key);
      if (Buffer.compare(k, from) < 0 || Buffer.compare(k, to) >= 0) continue;
      const kv = this.#at(key, revision);
      if (!kv) continue;
      count++;
      if (limit === 0 || kvs.length < limit) kvs.push(kv);
    }
    return { kvs, count };
  }

  /** A read at a revision (0: the current one) that etcd refuses: compacted or in the future. */
  #checkReadable(revision: number, compacted: () => StatusError): void {
    if (revision === 0) return;
    if (revision < this.#compacted) throw compacted();
    if (revision > this.#revision) throw newInternalError(futureMessage);
  }

  /** Waits (bounded) until the store has reached revision; 504 Too large resource version otherwise. */
  async #waitForRevision(revision: number): Promise<number> {
    const deadline = Date.now() + this.#revisionWaitMs;
    for (;;) {
      const current = this.#revision;
      if (current >= revision) return current;
      if (Date.now() >= deadline) throw newTooLargeResourceVersion(revision, current, 1);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** interpretEtcdError's answer to a read of a compacted revision. */
const expiredMessage = (what: string): string =>
  `The resourceVersion for the provided ${what} is too old.`;

const parse = (b: Buffer): Json => JSON.parse(b.toString('utf8')) as Json;

/**
 * A call as the gRPC client makes it: answered asynchronously, and a failure rebuilt from its
 * Status JSON (what crosses the wire), so that no object is shared with the caller.
 */
async function wire<T>(call: () => Promise<T>): Promise<T> {
  await Promise.resolve();
  try {
    return await call();
  } catch (err) {
    if (err instanceof StatusError)
      throw new StatusError(JSON.parse(JSON.stringify(err.status)) as StatusError['status']);
    throw newInternalError(err);
  }
}
