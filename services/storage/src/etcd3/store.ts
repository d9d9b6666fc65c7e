// The etcd-backed store: get, list, create, update and delete with the revision semantics of
// the spec's resourceVersion tables. Objects go in and out as JSON bytes; the revision is the
// resourceVersion.
import type { Etcd3, IKeyValue, IRangeRequest } from 'etcd3';
import {
  newAlreadyExists,
  newConflict,
  newNotFound,
  newRequestEntityTooLarge,
  newTooLargeResourceVersion,
} from '@orch/apimachinery/errors';
import type {
  Consistency,
  ListOptions,
  ListResult,
  Preconditions,
} from '@orch/apimachinery/storage';
import {
  decodeFromStorage,
  encodeForStorage,
  groupResourceOf,
  pagedList,
  withResourceVersion,
} from '@orch/apimachinery/storage';
import { interpretEtcdError } from './errors.js';

export interface StoreOptions {
  /** Largest object accepted, in bytes (etcd's default request limit is 1.5 MiB). */
  maxObjectBytes: number;
  /** How long a read for a revision the store has not reached waits before 504. */
  revisionWaitMs: number;
  /**
   * Awaited after each write succeeds, before it is answered, with its revision: storage waits
   * there for the publisher to announce it (PublishWait).
   */
  afterWrite?: (revision: number) => Promise<void>;
  /** How the writes' transactions go to etcd (TxnClient); etcd3's client when not given. */
  txn?: (req: Parameters<Etcd3['kv']['txn']>[0]) => ReturnType<Etcd3['kv']['txn']>;
}

export const defaultStoreOptions: StoreOptions = {
  maxObjectBytes: 1_572_864 - 16 * 1024,
  revisionWaitMs: 3000,
};

const conflictMessage =
  'the object has been modified; please apply your changes to the latest version and try again';

export class EtcdStore {
  readonly #etcd: Etcd3;
  readonly #opts: StoreOptions;
  readonly #txn: NonNullable<StoreOptions['txn']>;

  constructor(etcd: Etcd3, opts: Partial<StoreOptions> = {}) {
    this.#etcd = etcd;
    this.#opts = { ...defaultStoreOptions, ...opts };
    this.#txn = opts.txn ?? ((req) => etcd.kv.txn(req));
  }

  /** The store's current revision (a quorum read). */
  async currentRevision(): Promise<number> {
    try {
      const res = await this.#etcd.kv.range({
        key: Buffer.from('/registry/'),
        limit: 1,
        keys_only: true,
      } as IRangeRequest);
      return Number(res.header.revision);
    } catch (err) {
      throw interpretEtcdError(err, 'revision');
    }
  }

  /** Waits (bounded) until the store has reached revision; 504 Too large resource version otherwise. */
  async waitForRevision(revision: number): Promise<number> {
    const deadline = Date.now() + this.#opts.revisionWaitMs;
    for (;;) {
      const current = await this.currentRevision();
      if (current >= revision) return current;
      if (Date.now() >= deadline) throw newTooLargeResourceVersion(revision, current, 1);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async get(
    key: string,
    consistency: Consistency,
    revision = 0
  ): Promise<{ object: Buffer; revision: number }> {
    const req: IRangeRequest = { key: Buffer.from(key) };
    if (consistency === 'ANY') req.serializable = true;
    if (consistency === 'NOT_OLDER_THAN' && revision > 0) await this.waitForRevision(revision);
    if (consistency === 'EXACT') req.revision = revision;
    let res;
    try {
      res = await this.#etcd.kv.range(req);
    } catch (err) {
      throw interpretEtcdError(err, 'get');
    }
    const kv = res.kvs[0];
    if (!kv) {
      const gr = groupResourceOf(key);
      throw newNotFound(gr, gr.name);
    }
    return {
      object: withResourceVersion(kv.value, kv.mod_revision),
      revision: Number(res.header.revision),
    };
  }

  async list(opts: ListOptions): Promise<ListResult> {
    return pagedList(opts, {
      range: async (start, end, limit, revision, serializable, expired) => {
        const req: IRangeRequest = { key: Buffer.from(start), range_end: Buffer.from(end) };
        if (limit > 0) req.limit = limit;
        if (revision > 0) req.revision = revision;
        if (serializable) req.serializable = true;
        let res;
        try {
          res = await this.#etcd.kv.range(req);
        } catch (err) {
          if (err instanceof Error && /compacted/.test(err.message)) throw expired();
          throw interpretEtcdError(err, 'list');
        }
        return {
          kvs: res.kvs.map((kv) => ({
            key: kv.key.toString('latin1'),
            value: kv.value,
            modRevision: kv.mod_revision,
          })),
          count: Number(res.count),
          revision: Number(res.header.revision),
        };
      },
      waitForRevision: (revision) => this.waitForRevision(revision),
    });
  }

  async create(key: string, object: Uint8Array): Promise<Buffer> {
    const value = this.#encode(object);
    let res;
    try {
      res = await this.#txn({
        compare: [{ key: Buffer.from(key), target: 'Version', result: 'Equal', version: 0 }],
        success: [{ request_put: { key: Buffer.from(key), value } }],
        failure: [],
      });
    } catch (err) {
      throw interpretEtcdError(err, 'create');
    }
    if (!res.succeeded) {
      const gr = groupResourceOf(key);
      throw newAlreadyExists(gr, gr.name);
    }
    await this.#opts.afterWrite?.(Number(res.header.revision));
    return withResourceVersion(value, res.header.revision);
  }

  async update(key: string, object: Uint8Array, pre: Preconditions): Promise<Buffer> {
    const value = this.#encode(object);
    const revision = await this.#checkPreconditions(key, pre);
    let res;
    try {
      res = await this.#txn({
        compare: [
          { key: Buffer.from(key), target: 'Mod', result: 'Equal', mod_revision: revision },
        ],
        success: [{ request_put: { key: Buffer.from(key), value } }],
        failure: [],
      });
    } catch (err) {
      throw interpretEtcdError(err, 'update');
    }
    if (!res.succeeded) throw await this.#lostRace(key);
    await this.#opts.afterWrite?.(Number(res.header.revision));
    return withResourceVersion(value, res.header.revision);
  }

  async delete(key: string, pre: Preconditions): Promise<{ object: Buffer; revision: number }> {
    const revision = await this.#checkPreconditions(key, pre);
    let res;
    try {
      res = await this.#txn({
        compare: [
          { key: Buffer.from(key), target: 'Mod', result: 'Equal', mod_revision: revision },
        ],
        success: [{ request_delete_range: { key: Buffer.from(key), prev_kv: true } }],
        failure: [],
      });
    } catch (err) {
      throw interpretEtcdError(err, 'delete');
    }
    if (!res.succeeded) throw await this.#lostRace(key);
    const prev = res.responses[0]?.response_delete_range?.prev_kvs[0];
    if (!prev) throw await this.#lostRace(key);
    const deletedAt = Number(res.header.revision);
    await this.#opts.afterWrite?.(deletedAt);
    return { object: withResourceVersion(prev.value, deletedAt), revision: deletedAt };
  }

  #encode(object: Uint8Array): Buffer {
    const value = encodeForStorage(object);
    if (value.length > this.#opts.maxObjectBytes) {
      throw newRequestEntityTooLarge(
        `the object is ${value.length} bytes, over the ${this.#opts.maxObjectBytes} bytes the store accepts`
      );
    }
    return value;
  }

  /** The current mod_revision when the preconditions hold; NotFound or Conflict otherwise. */
  async #checkPreconditions(key: string, pre: Preconditions): Promise<number> {
    const gr = groupResourceOf(key);
    let kv: IKeyValue | undefined;
    try {
      kv = (await this.#etcd.kv.range({ key: Buffer.from(key) })).kvs[0];
    } catch (err) {
      throw interpretEtcdError(err, 'read');
    }
    if (!kv) throw newNotFound(gr, gr.name);
    if (pre.revision && Number(kv.mod_revision) !== pre.revision)
      throw newConflict(gr, gr.name, conflictMessage);
    if (pre.uid) {
      const current = decodeFromStorage(kv.value, kv.mod_revision);
      const uid = (current['metadata'] as { uid?: string } | undefined)?.uid;
      if (uid !== pre.uid) {
        throw newConflict(
          gr,
          gr.name,
          `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${uid ?? ''}`
        );
      }
    }
    return Number(kv.mod_revision);
  }

  async #lostRace(key: string): Promise<Error> {
    const gr = groupResourceOf(key);
    const exists =
      (await this.#etcd.kv.range({ key: Buffer.from(key), count_only: true })).count !== '0';
    return exists ? newConflict(gr, gr.name, conflictMessage) : newNotFound(gr, gr.name);
  }
}
