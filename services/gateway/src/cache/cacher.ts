// The cacher of one type (k8s apiserver pkg/storage/cacher/cacher.go and cache_watcher.go): a
// Reflector over the storage and NATS ListerWatcher fills a WatchCache; watches are served from
// the cache's ring, and reads from the cache once it has reached the revision they need
// (waitUntilFreshAndBlock; consistent reads after one shared read of storage's revision).
import type { NatsConnection } from 'nats';
import { newNotFound, newTooLargeResourceVersion } from '@orch/apimachinery/errors';
import type { Status } from '@orch/apimachinery/errors';
import {
  Reflector,
  RevisionCursor,
  StorageListerWatcher,
  objectKey,
} from '@orch/apimachinery/informer';
import type { StreamProgress } from '@orch/apimachinery/informer';
import { parseFieldSelector, parseLabelSelector, fieldValue } from '@orch/apimachinery/selectors';
import type { Consistency, StorageInterface } from '@orch/apimachinery/storage';
import type { WatchMessage } from '@orch/apimachinery/watch';
import type { Logger } from '@orch/component-base/logs';
import type { Change, FeedListener } from '../watch/change.js';
import { decodeContinue, encodeContinue } from '@orch/apimachinery/storage';
import type { RevisionReader } from '@orch/apimachinery/storage';
import { WatchCache } from './watch-cache.js';
import type { Snapshot } from './watch-cache.js';

type Obj = Record<string, unknown>;

export interface CacheHooks {
  /** Test hook: drop a message as if NATS had lost it. */
  dropMessage?: (m: WatchMessage) => boolean;
  onFanout?: (n: number) => void;
  onGapRepaired?: (events: number) => void;
  /** A consistent read served from the cache (true) or by storage after the wait (false). */
  onConsistentRead?: (resource: string, fromCache: boolean) => void;
  /** How long a read waited for the cache to reach its revision (upstream's waitUntilFreshAndBlock). */
  onReadWait?: (resource: string, seconds: number) => void;
  /** How long a consistent read's revision took to read, from the publisher or from storage (Cachers). */
  onRevisionRead?: (source: 'publisher' | 'storage', seconds: number) => void;
}

export interface CacherOptions {
  /** Storage key prefix of the type: `/registry/<group>/<resource>/`. */
  prefix: string;
  storage: StorageInterface;
  nats: NatsConnection;
  log: Logger;
  revisions: RevisionReader;
  /** The connection's whole-stream progress (quiet types reach a revision without a write). */
  streamProgress?: StreamProgress;
  hooks?: CacheHooks;
  /** How long a consistent read waits for the cache (k8s: 3 s), then reads storage. */
  consistentReadTimeoutMs?: number;
  /** How long a not-older-than read waits for the cache before 504 Too large resource version. */
  freshWaitMs?: number;
  /** Changes kept in the ring. */
  capacity?: number;
  /** The gate ConsistentListFromCache (default on): consistent reads may be served here; off, they always go to storage. */
  consistentListFromCache?: boolean;
}

/** A read's options as the stores get them (k8s storage.ListOptions). */
export interface CacheListOptions {
  consistency: Consistency;
  revision?: number | undefined;
  limit?: number | undefined;
  continueToken?: string | undefined;
  labelSelector?: string | undefined;
  fieldSelector?: string | undefined;
}

export interface CacheList {
  items: Obj[];
  revision: number;
  continueToken: string;
  remainingItemCount: number;
}

/** The end of a key prefix's range: the prefix with its last character incremented. */
const prefixEnd = (prefix: string): string =>
  prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

export class Cacher {
  readonly prefix: string;
  readonly resource: string;
  readonly cache: WatchCache;
  readonly #lw: StorageListerWatcher;
  readonly #reflector: Reflector;
  readonly #storage: StorageInterface;
  readonly #revisions: RevisionReader;
  readonly #hooks: CacheHooks;
  readonly #consistentReadTimeoutMs: number;
  readonly #freshWaitMs: number;
  readonly #consistentListFromCache: boolean;
  readonly #log: Logger;
  readonly #stream: StreamProgress | undefined;
  #started = false;
  #stopped = false;
  #required = false;
  /** Until then consistent reads go to storage at once: one just waited in vain. */
  #storageUntil = 0;

  constructor(opts: CacherOptions) {
    this.prefix = opts.prefix;
    this.resource = opts.prefix.split('/')[3] ?? '';
    this.#storage = opts.storage;
    this.#revisions = opts.revisions;
    this.#hooks = opts.hooks ?? {};
    this.#log = opts.log.child({ cache: opts.prefix });
    this.#stream = opts.streamProgress;
    this.#consistentReadTimeoutMs = opts.consistentReadTimeoutMs ?? 3000;
    this.#freshWaitMs = opts.freshWaitMs ?? 3000;
    this.#consistentListFromCache = opts.consistentListFromCache ?? true;
    this.cache = new WatchCache({
      prefix: opts.prefix,
      ...(opts.capacity !== undefined ? { capacity: opts.capacity } : {}),
    });
    if (this.#hooks.onFanout) this.cache.onFanout = this.#hooks.onFanout;
    this.#lw = new StorageListerWatcher({
      storage: opts.storage,
      nats: opts.nats,
      prefix: opts.prefix,
      log: this.#log,
      ...(this.#hooks.dropMessage ? { dropMessage: this.#hooks.dropMessage } : {}),
      ...(this.#hooks.onGapRepaired ? { onRepair: this.#hooks.onGapRepaired } : {}),
      ...(opts.streamProgress ? { streamProgress: opts.streamProgress } : {}),
    });
    this.#reflector = new Reflector(this.#lw, this.cache, {
      name: opts.prefix,
      log: this.#log,
      retryMs: 500,
    });
  }

  get started(): boolean {
    return this.#started;
  }

  /** Whether the gateway's own loops read this cache (readiness waits for it). */
  get required(): boolean {
    return this.#required;
  }

  /**
   * Starts filling the cache (once). `required`: the gateway's own loops read it (the
   * namespaces, the RBAC kinds, bootstrap-token secrets), so /readyz waits for it; caches
   * started by a first read or watch serve once synced and leave readiness alone.
   */
  start(opts: { required?: boolean } = {}): this {
    if (opts.required) this.#required = true;
    if (!this.#started && !this.#stopped) {
      this.#started = true;
      void this.#reflector.run();
    }
    return this;
  }

  /** Stops filling the cache, for good: a read after it (a gateway shutting down) starts nothing. */
  stop(): void {
    this.#stopped = true;
    this.#reflector.stop();
  }

  /**
   * Whether the cache answers a read with this consistency (waiting for it to be fresh enough);
   * false when storage should: the cache is not synced yet, the read is Exact, the change stream
   * is disconnected (the cache cannot catch up), or a consistent read's wait timed out (counted;
   * storage then answers this type's consistent reads for a second rather than each waiting).
   * A not-older-than revision the cache does not reach in time is 504 Too large resource
   * version, as storage answers.
   */
  async serves(consistency: Consistency, revision?: number): Promise<boolean> {
    this.start();
    if (!this.cache.synced) return false;
    switch (consistency) {
      case 'ANY':
        return true;
      case 'NOT_OLDER_THAN': {
        if (!revision || this.cache.lastRevision >= revision) return true;
        if (this.#stream?.connected === false) return false;
        if (await this.#fresh(revision, this.#freshWaitMs)) return true;
        throw newTooLargeResourceVersion(revision, this.cache.lastRevision, 1);
      }
      case 'MOST_RECENT': {
        if (!this.#consistentListFromCache) return false;
        if (this.#stream?.connected === false || Date.now() < this.#storageUntil) {
          this.#hooks.onConsistentRead?.(this.resource, false);
          return false;
        }
        const current = await this.#revisions.current();
        const fresh = await this.#fresh(current, this.#consistentReadTimeoutMs);
        this.#hooks.onConsistentRead?.(this.resource, fresh);
        if (!fresh) {
          this.#storageUntil = Date.now() + 1000;
          this.#log.warn('the watch cache did not reach the current revision; reading storage', {
            revision: current,
            cached: this.cache.lastRevision,
          });
        }
        return fresh;
      }
      default:
        return false;
    }
  }

  /**
   * True once the cache has reached `revision`. A type that did not change since is asked for
   * progress: the whole change stream passing the revision proves it (k8s cacher's progress
   * requester, without a write); otherwise it comes with the publisher's next progress.
   */
  async #fresh(revision: number, timeoutMs: number): Promise<boolean> {
    const cache = this.cache;
    if (cache.lastRevision >= revision) {
      this.#hooks.onReadWait?.(this.resource, 0);
      return true;
    }
    const started = performance.now();
    this.#reflector
      .requestProgress(revision, timeoutMs)
      .catch((err: unknown) => this.#log.debug('progress request failed', { err }));
    const fresh = await cache.waitUntilFresh(revision, timeoutMs);
    this.#hooks.onReadWait?.(this.resource, (performance.now() - started) / 1000);
    return fresh;
  }

  /** The object at a storage key in the cache; 404 as storage answers it. */
  get(key: string): Obj {
    const obj = this.cache.getByKey(key);
    if (obj) return obj;
    const parts = key.split('/');
    const gr = { group: parts[2] === 'core' ? '' : (parts[2] ?? ''), resource: parts[3] ?? '' };
    throw newNotFound(gr, parts[parts.length - 1] ?? '');
  }

  /**
   * A list under `prefix` from the cache, or undefined when storage answers it: continue tokens
   * and Exact reads at a revision a kept snapshot holds page from memory, the rest as serves().
   */
  async list(prefix: string, opts: CacheListOptions): Promise<CacheList | undefined> {
    if (opts.continueToken) {
      // A token storage would refuse is left to storage, for its error.
      const token = tryDecodeContinue(opts.continueToken, prefix);
      const snap = token && this.cache.snapshotAt(token.revision);
      return snap ? this.#page(snap, prefix, opts, token.startKey) : undefined;
    }
    if (opts.consistency === 'EXACT') {
      const snap = opts.revision ? this.cache.snapshotAt(opts.revision) : undefined;
      return snap ? this.#page(snap, prefix, opts, prefix) : undefined;
    }
    if (!(await this.serves(opts.consistency, opts.revision))) return undefined;
    return this.#page(this.cache.snapshot(), prefix, opts, prefix);
  }

  /** One page of a snapshot, as storage would answer it (etcd3 store.GetList). */
  #page(snap: Snapshot, prefix: string, opts: CacheListOptions, startKey: string): CacheList {
    const labels = opts.labelSelector ? parseLabelSelector(opts.labelSelector) : undefined;
    const fields = opts.fieldSelector ? parseFieldSelector(opts.fieldSelector) : undefined;
    const useLabels = labels && !labels.empty() ? labels : undefined;
    const useFields = fields && !fields.empty() ? fields : undefined;
    const filtered = !!useLabels || !!useFields;
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const { keys } = snap;
    const end = keys.lowerBound(prefixEnd(prefix));
    const items: Obj[] = [];
    let lastIdx = -1;
    let lastKey = '';
    snap.forEachFrom(keys.lowerBound(startKey), (key, obj, i) => {
      if (i >= end) return false;
      if (filtered) {
        const meta = obj['metadata'] as { labels?: Record<string, string> } | undefined;
        if (useLabels && !useLabels.matches(meta?.labels)) return true;
        if (useFields && !useFields.matches((f) => fieldValue(obj, f))) return true;
      }
      items.push(obj);
      if (limit > 0 && items.length >= limit) {
        lastIdx = i;
        lastKey = key;
        return false;
      }
      return true;
    });
    const more = lastIdx >= 0 && lastIdx + 1 < end;
    return {
      items,
      revision: snap.revision,
      continueToken: more ? encodeContinue(snap.revision, `${lastKey}\0`, prefix) : '',
      remainingItemCount: more && !filtered ? end - lastIdx - 1 : -1,
    };
  }

  /**
   * Every change after `fromRevision` to the listener, then live ones, until the returned
   * function is called. From the ring when it reaches back that far. When it does not, upstream
   * answers 410; storage keeps etcd's history, so it is replayed from there instead, once for
   * every watcher starting from about the same revision (a hundred clients reconnecting to a
   * restarted gateway is one replay), followed by the ring and the live changes held meanwhile,
   * without duplicates. Only when etcd has compacted that history too is the answer 410.
   */
  async watch(listener: FeedListener, fromRevision: number): Promise<() => void> {
    this.start();
    await this.cache.waitForSync();
    const gate = new GatedListener(listener, fromRevision);
    const remove = (): void => this.cache.removeListener(gate);
    if (this.cache.addListener(gate, fromRevision)) {
      gate.open();
      return remove;
    }
    this.cache.addLiveListener(gate);
    try {
      const replay = await this.#replay(fromRevision);
      for (const c of replay.changes) gate.deliver(c);
      if (this.cache.ringStart <= replay.until) {
        for (const c of this.cache.ringChanges()) gate.deliver(c);
      } else {
        // The ring moved past the replay's end meanwhile: this watcher replays the rest itself.
        await this.#storage.history(this.prefix, gate.from, (e) => gate.deliver(toChange(e)));
      }
    } catch (err) {
      remove();
      throw err;
    }
    gate.open();
    return remove;
  }

  readonly #replays: { from: number; done: Promise<{ until: number; changes: Change[] }> }[] = [];

  /** Storage's history after `from` (or a little earlier), shared with concurrent callers. */
  #replay(from: number): Promise<{ until: number; changes: Change[] }> {
    const running = this.#replays.find((r) => r.from <= from);
    if (running) return running.done;
    const changes: Change[] = [];
    const r = {
      from,
      done: this.#storage
        .history(this.prefix, from, (e) => changes.push(toChange(e)))
        .then((until) => ({ until, changes })),
    };
    this.#replays.push(r);
    const forget = (): void => void this.#replays.splice(this.#replays.indexOf(r), 1);
    r.done.then(forget, forget);
    return r.done;
  }
}

function toChange(e: {
  type: Change['type'];
  revision: number;
  object: Obj;
  prevObject?: Obj;
}): Change {
  const c: Change = { type: e.type, revision: e.revision, object: e.object };
  if (e.prevObject) c.prevObject = e.prevObject;
  return c;
}

/**
 * A watcher behind the cache (k8s cacheWatcher): changes only after its revision, in order, each
 * once; live changes held while it catches up from history.
 */
class GatedListener implements FeedListener {
  readonly #target: FeedListener;
  readonly #cursor: RevisionCursor;
  #held: Change[] | undefined = [];

  constructor(target: FeedListener, fromRevision: number) {
    this.#target = target;
    this.#cursor = new RevisionCursor(fromRevision);
  }

  /** The revision a replay for this watcher starts after. */
  get from(): number {
    return this.#cursor.from;
  }

  /** A change of the catch-up. */
  deliver(c: Change): void {
    if (!this.#cursor.accept(c.revision, objectKey(c.object))) return;
    this.#target.change(c);
  }

  /** Caught up: the held live changes, then live ones as they come. */
  open(): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const c of held) this.deliver(c);
  }

  change(c: Change): void {
    // The ring's changes arrive before open(), and live ones while catching up: held.
    if (this.#held) this.#held.push(c);
    else this.deliver(c);
  }

  progress(revision: number): void {
    if (this.#held || revision < this.#cursor.revision) return;
    this.#cursor.complete(revision);
    this.#target.progress(revision);
  }

  fail(status: Status): void {
    this.#target.fail(status);
  }
}

function tryDecodeContinue(
  token: string,
  prefix: string
): { revision: number; startKey: string } | undefined {
  try {
    return decodeContinue(token, prefix);
  } catch {
    return undefined;
  }
}
