// The etcd-backed store: get, list, create, update and delete with the revision semantics of
// the spec's resourceVersion tables. Objects go in and out as JSON bytes; the revision is the
// resourceVersion.
import type { Etcd3, IKeyValue, IRangeRequest } from 'etcd3';
import {
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newNotFound,
  newRequestEntityTooLarge,
  newResourceExpired,
  newTooLargeResourceVersion,
} from '@orch/apimachinery/errors';
import { fieldValue, parseFieldSelector, parseLabelSelector } from '@orch/apimachinery/selectors';
import type { FieldSelector, LabelSelector } from '@orch/apimachinery/selectors';
import type {
  Consistency,
  ListOptions,
  ListResult,
  Preconditions,
} from '@orch/apimachinery/storage';
import {
  decodeContinue,
  decodeFromStorage,
  encodeContinue,
  encodeForStorage,
  groupResourceOf,
  prefixEnd,
  validatePrefix,
  withResourceVersion,
} from '@orch/apimachinery/storage';
import { interpretEtcdError } from './errors.js';

export interface StoreOptions {
  /** Largest object accepted, in bytes (etcd's default request limit is 1.5 MiB). */
  maxObjectBytes: number;
  /** How long a read for a revision the store has not reached waits before 504. */
  revisionWaitMs: number;
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

  constructor(etcd: Etcd3, opts: Partial<StoreOptions> = {}) {
    this.#etcd = etcd;
    this.#opts = { ...defaultStoreOptions, ...opts };
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
    validatePrefix(opts.prefix);
    const labels = parseSelectorOr400(() =>
      opts.labelSelector ? parseLabelSelector(opts.labelSelector) : undefined
    );
    const fields = parseSelectorOr400(() =>
      opts.fieldSelector ? parseFieldSelector(opts.fieldSelector) : undefined
    );
    const filtered = (!!labels && !labels.empty()) || (!!fields && !fields.empty());
    const end = Buffer.from(prefixEnd(opts.prefix));
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;

    let startKey = opts.prefix;
    let revision = 0; // 0: read at the current revision
    let serializable = false;
    if (opts.continueToken) {
      const token = decodeContinue(opts.continueToken, opts.prefix);
      startKey = token.startKey;
      revision = token.revision;
    } else if (opts.consistency === 'EXACT') {
      if (!opts.revision) throw newBadRequest('an exact list needs a resourceVersion');
      await this.waitForRevision(opts.revision);
      revision = opts.revision;
    } else if (opts.consistency === 'NOT_OLDER_THAN' && opts.revision) {
      await this.waitForRevision(opts.revision);
    } else if (opts.consistency === 'ANY') {
      serializable = true;
    }

    const items: Buffer[] = [];
    let more = false;
    let lastKey = '';
    let remaining = -1;
    for (;;) {
      const pageSize =
        limit === 0
          ? 0
          : filtered
            ? Math.max(limit - items.length, Math.min(limit * 2, 1000))
            : limit - items.length;
      const req: IRangeRequest = { key: Buffer.from(startKey), range_end: end };
      if (pageSize > 0) req.limit = pageSize;
      if (revision > 0) req.revision = revision;
      if (serializable) req.serializable = true;
      let res;
      try {
        res = await this.#etcd.kv.range(req);
      } catch (err) {
        if (err instanceof Error && /compacted/.test(err.message)) {
          throw opts.continueToken
            ? newResourceExpired(
                'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.'
              )
            : newResourceExpired(`too old resource version: ${revision}`);
        }
        throw interpretEtcdError(err, 'list');
      }
      if (revision === 0) revision = Number(res.header.revision);
      let i = 0;
      for (const kv of res.kvs) {
        i++;
        lastKey = kv.key.toString('latin1');
        if (filtered && !matches(kv, labels, fields)) continue;
        items.push(withResourceVersion(kv.value, kv.mod_revision));
        if (limit > 0 && items.length >= limit) break;
      }
      const unread = Number(res.count) - i;
      more = unread > 0;
      if (!filtered) remaining = unread;
      if (!more || (limit > 0 && items.length >= limit) || limit === 0) break;
      startKey = `${lastKey}\0`;
    }
    return {
      items,
      revision,
      continueToken: more ? encodeContinue(revision, `${lastKey}\0`, opts.prefix) : '',
      remainingItemCount: more && !filtered ? remaining : -1,
    };
  }

  async create(key: string, object: Uint8Array): Promise<Buffer> {
    const value = this.#encode(object);
    let res;
    try {
      res = await this.#etcd.kv.txn({
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
    return withResourceVersion(value, res.header.revision);
  }

  async update(key: string, object: Uint8Array, pre: Preconditions): Promise<Buffer> {
    const value = this.#encode(object);
    const revision = await this.#checkPreconditions(key, pre);
    let res;
    try {
      res = await this.#etcd.kv.txn({
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
    return withResourceVersion(value, res.header.revision);
  }

  async delete(key: string, pre: Preconditions): Promise<{ object: Buffer; revision: number }> {
    const revision = await this.#checkPreconditions(key, pre);
    let res;
    try {
      res = await this.#etcd.kv.txn({
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

function parseSelectorOr400<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw newBadRequest(
      `unable to parse requirement: ${err instanceof Error ? err.message : String(err)}`
    );
  }
}

function matches(
  kv: IKeyValue,
  labels: LabelSelector | undefined,
  fields: FieldSelector | undefined
): boolean {
  const obj = JSON.parse(kv.value.toString('utf8')) as {
    metadata?: { labels?: Record<string, string> };
  };
  if (labels && !labels.matches(obj.metadata?.labels)) return false;
  if (fields && !fields.matches((f) => fieldValue(obj, f))) return false;
  return true;
}
