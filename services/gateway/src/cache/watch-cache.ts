// The watch cache of one type (k8s apiserver pkg/storage/cacher/watch_cache.go): the objects by
// storage key (kept in key order, so a namespace is one range of keys), a ring of recent changes
// with the object before each (selector transitions), the revision the cache is complete up
// to, waiters for a revision, and a few snapshots of the state for paged lists
// (watch_cache's snapshots of the store at a revision). A Reflector fills it; it is also an
// Informer for the gateway's own loops.
import { newResourceExpired } from '@orch/apimachinery/errors';
import { RevisionWaiters, objectKey } from '@orch/apimachinery/informer';
import type {
  ChangeType,
  Informer,
  InformerEventHandler,
  ReflectorSink,
} from '@orch/apimachinery/informer';
import type { Change, FeedListener } from '../watch/change.js';
import { SortedKeys } from './sorted-keys.js';

type Obj = Record<string, unknown>;

/**
 * The state at one revision, keys in order (immutable). Read it while the cache keeps it: at
 * once after snapshot(), or as snapshotAt() answers it.
 */
export interface Snapshot {
  revision: number;
  keys: SortedKeys;
  /**
   * Calls `fn` with each key from index `from` on and its object as it was at the snapshot, in
   * key order, until it answers false.
   */
  forEachFrom(from: number, fn: (key: string, obj: Obj, index: number) => boolean): void;
  /** When it was taken (snapshots are kept a bounded time). */
  takenAt: number;
}

/** A snapshot as the cache keeps it: with the objects it keeps up to date. */
interface KeptSnapshot extends Snapshot {
  readonly objects: SnapshotObjects;
}

/**
 * The objects of a snapshot, without a copy of them: the cache's live objects, except those
 * changed or deleted since, which the cache hands over (remember) before it changes them. A
 * snapshot used to copy every object of the type into an array, O(objects held) for each list
 * after a change: 2 ms for a LIST of 100 objects from a cache of 50,000. Now a list costs the
 * range it reads, and a change a lookup per snapshot kept.
 */
class SnapshotObjects {
  /** Objects of the snapshot changed or deleted since, as they were in it. */
  readonly #before = new Map<string, Obj>();
  #dropped = false;

  constructor(
    readonly keys: SortedKeys,
    private readonly live: ReadonlyMap<string, Obj>
  ) {}

  forEachFrom(from: number, fn: (key: string, obj: Obj, index: number) => boolean): void {
    this.#assertKept();
    const { live } = this;
    const before = this.#before.size > 0 ? this.#before : undefined;
    this.keys.forEachFrom(from, (key, i) => fn(key, before?.get(key) ?? live.get(key)!, i));
  }

  #assertKept(): void {
    if (this.#dropped) throw new Error('a snapshot read after the watch cache dropped it');
  }

  /** The object at `key` is about to change: kept as it was, if the snapshot holds it. */
  remember(key: string, old: Obj): void {
    if (!this.#before.has(key) && this.keys.has(key)) this.#before.set(key, old);
  }

  /** No longer kept up: a read after this is a bug of the reader. */
  drop(): void {
    this.#dropped = true;
  }
}

export interface WatchCacheOptions {
  /** Storage key prefix of the type: `/registry/<group>/<resource>/`. */
  prefix: string;
  /** Changes kept for watches that resume from a recent revision. */
  capacity?: number;
  /** Snapshots kept for continue tokens. */
  snapshots?: number;
  /** How long a snapshot is kept for continue tokens. */
  snapshotTtlMs?: number;
}

export class WatchCache implements ReflectorSink, Informer {
  readonly prefix: string;
  readonly capacity: number;
  readonly #maxSnapshots: number;
  readonly #snapshotTtlMs: number;
  readonly #objects = new Map<string, Obj>();
  /**
   * The keys of #objects in order, as of the last #sortedKeys(): the keys added or deleted since
   * are in #touched, merged in when a snapshot needs them (sorted-keys.ts: the blocks they fall
   * in are copied, the rest shared with the snapshots that hold them). Moving each new key into
   * place on every change cost a move of the keys after it: O(n) per create, a few percent of a
   * gateway's CPU with 30,000 objects in one cache.
   */
  #keys = SortedKeys.empty;
  #touched = new Set<string>();
  /** Recent changes; every change with revision > #ringStart is in it. */
  #ring: Change[] = [];
  #ringStart = 0;
  #revision = 0;
  #synced = false;
  #relists = 0;
  readonly #listeners = new Set<FeedListener>();
  readonly #handlers: InformerEventHandler[] = [];
  #syncWaiters: (() => void)[] = [];
  readonly #revisionWaiters = new RevisionWaiters();
  /** The snapshot of the current state, until the next change. */
  #current: KeptSnapshot | undefined;
  #snapshots: KeptSnapshot[] = [];
  /** Called with how many watchers each change went to. */
  onFanout: ((n: number) => void) | undefined;

  constructor(opts: WatchCacheOptions) {
    this.prefix = opts.prefix;
    this.capacity = opts.capacity ?? 2000;
    this.#maxSnapshots = opts.snapshots ?? 4;
    this.#snapshotTtlMs = opts.snapshotTtlMs ?? 75_000;
  }

  // --- Informer -------------------------------------------------------------------------------

  addEventHandler(h: InformerEventHandler): void {
    this.#handlers.push(h);
  }

  get synced(): boolean {
    return this.#synced;
  }

  waitForSync(): Promise<void> {
    return this.#synced ? Promise.resolve() : new Promise((r) => this.#syncWaiters.push(r));
  }

  /** By `<namespace>/<name>` or `<name>` (objectKey). */
  get(key: string): Obj | undefined {
    return this.#objects.get(this.prefix + key);
  }

  list(): Obj[] {
    return [...this.#objects.values()];
  }

  get lastRevision(): number {
    return this.#revision;
  }

  // --- reads ----------------------------------------------------------------------------------

  /** The object at a storage key. */
  getByKey(key: string): Obj | undefined {
    return this.#objects.get(key);
  }

  get size(): number {
    return this.#objects.size;
  }

  get ringSize(): number {
    return this.#ring.length;
  }

  /** The oldest revision a watch can resume from out of the ring. */
  get ringStart(): number {
    return this.#ringStart;
  }

  /** How many times the state was replaced after the first list. */
  get relists(): number {
    return this.#relists;
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  /** A sample of the objects (memory estimates). */
  sample(n: number): Obj[] {
    const out: Obj[] = [];
    for (const o of this.#objects.values()) {
      if (out.length >= n) break;
      out.push(o);
    }
    return out;
  }

  /** The current state as a snapshot (taken once per change, shared by the lists that follow). */
  snapshot(): Snapshot {
    const now = Date.now();
    let s = this.#current;
    if (s && s.revision !== this.#revision) {
      // Only progress since: the same state, at a newer revision.
      s = { ...s, revision: this.#revision, takenAt: now };
    } else if (!s) {
      const objects = new SnapshotObjects(this.#sortedKeys(), this.#objects);
      s = {
        revision: this.#revision,
        keys: objects.keys,
        forEachFrom: (from, fn) => objects.forEachFrom(from, fn),
        takenAt: now,
        objects,
      };
    }
    if (s !== this.#current) {
      this.#current = s;
      const kept = this.#snapshots.filter((x) => now - x.takenAt < this.#snapshotTtlMs);
      kept.push(s);
      if (kept.length > this.#maxSnapshots) kept.shift();
      this.#keep(kept);
    }
    return s;
  }

  /** A kept snapshot at exactly `revision`, if any. */
  snapshotAt(revision: number): Snapshot | undefined {
    const now = Date.now();
    return this.#snapshots.find(
      (s) => s.revision === revision && now - s.takenAt < this.#snapshotTtlMs
    );
  }

  /** Resolves true once the cache has reached `revision`, false after `timeoutMs`. */
  waitUntilFresh(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.#synced && this.#revision >= revision) return Promise.resolve(true);
    return this.#revisionWaiters.wait(revision, timeoutMs);
  }

  // --- watchers -------------------------------------------------------------------------------

  /**
   * Adds a listener from `fromRevision` when the ring reaches back that far: the changes after
   * it from the ring, then every live one. False (nothing added) when the ring does not.
   */
  addListener(listener: FeedListener, fromRevision: number): boolean {
    if (!this.#synced || fromRevision < this.#ringStart) return false;
    for (const c of this.#ring) if (c.revision > fromRevision) listener.change(c);
    this.#listeners.add(listener);
    return true;
  }

  /** The changes in the ring, oldest first (every change after ringStart). */
  ringChanges(): readonly Change[] {
    return this.#ring;
  }

  /** Adds a listener that receives only live changes (it caught up elsewhere). */
  addLiveListener(listener: FeedListener): void {
    this.#listeners.add(listener);
  }

  removeListener(listener: FeedListener): void {
    this.#listeners.delete(listener);
  }

  // --- ReflectorSink --------------------------------------------------------------------------

  replace(items: Obj[], revision: number): void {
    if (this.#synced) {
      // k8s cacher: a relist ends every watcher (their history may now have a hole); clients
      // watch again from their last revision, or relist on this 410.
      this.#relists++;
      const gone = newResourceExpired(
        `the watch cache of ${this.prefix} was relisted at revision ${revision}; watch again`
      ).status;
      const ended = [...this.#listeners];
      this.#listeners.clear();
      for (const l of ended) l.fail(gone);
    }
    const fresh = new Map<string, Obj>();
    for (const o of items) fresh.set(this.prefix + objectKey(o), o);
    const old = new Map(this.#objects);
    this.#objects.clear();
    for (const [k, o] of fresh) this.#objects.set(k, o);
    this.#keys = SortedKeys.of([...fresh.keys()].sort());
    this.#touched.clear();
    this.#ring = [];
    this.#ringStart = revision;
    this.#revision = revision;
    this.#current = undefined;
    // The snapshots go: a continue token at their revisions is answered by storage instead.
    this.#keep([]);
    for (const [k, o] of old) if (!fresh.has(k)) for (const h of this.#handlers) h.onDelete?.(o);
    for (const [k, o] of fresh) {
      const before = old.get(k);
      for (const h of this.#handlers) {
        if (before) h.onUpdate?.(before, o);
        else h.onAdd?.(o);
      }
    }
    for (const h of this.#handlers) h.onReplace?.(revision);
    if (!this.#synced) {
      this.#synced = true;
      for (const w of this.#syncWaiters.splice(0)) w();
    }
    this.#wake();
  }

  change(type: ChangeType, object: Obj, revision: number, prevObject?: Obj): void {
    const key = this.prefix + objectKey(object);
    const old = this.#objects.get(key);
    if (old) for (const x of this.#snapshots) x.objects.remember(key, old);
    if (type === 'DELETED') {
      if (old) {
        this.#objects.delete(key);
        this.#touched.add(key);
      }
    } else {
      if (!old) this.#touched.add(key);
      this.#objects.set(key, object);
    }
    // Merged once as many keys changed as the cache holds: memory stays bounded without lists,
    // and the merge's cost is spread over the changes that made it.
    if (this.#touched.size > this.#objects.size + 1000) this.#sortedKeys();
    const c: Change = { type, revision, object };
    const before = old ?? prevObject;
    if (before && type !== 'ADDED') c.prevObject = before;
    this.#ring.push(c);
    if (this.#ring.length > this.capacity) {
      const dropped = this.#ring.splice(0, this.#ring.length - this.capacity);
      this.#ringStart = dropped[dropped.length - 1]!.revision;
    }
    this.#revision = revision;
    this.#current = undefined;
    if (type === 'DELETED') {
      // The object's last state at the deletion revision (its resourceVersion is that revision).
      if (old) for (const h of this.#handlers) h.onDelete?.(object);
    } else {
      for (const h of this.#handlers) {
        if (old) h.onUpdate?.(old, object);
        else h.onAdd?.(object);
      }
    }
    for (const l of this.#listeners) l.change(c);
    this.onFanout?.(this.#listeners.size);
    this.#wake();
  }

  /** The keys in order: #keys with the keys added or deleted since merged in or left out. */
  #sortedKeys(): SortedKeys {
    if (this.#touched.size === 0) return this.#keys;
    const objects = this.#objects;
    this.#keys = this.#keys.updated([...this.#touched].sort(), (k) => objects.has(k));
    this.#touched.clear();
    return this.#keys;
  }

  progress(revision: number): void {
    if (revision < this.#revision) return;
    this.#revision = revision;
    for (const l of this.#listeners) l.progress(revision);
    this.#wake();
  }

  /** Ends every watcher (the cache stops). */
  stop(status: Parameters<FeedListener['fail']>[0]): void {
    const ended = [...this.#listeners];
    this.#listeners.clear();
    for (const l of ended) l.fail(status);
    this.#revisionWaiters.cancelAll();
  }

  /** Keeps `snapshots`; the objects of those no longer kept stop being kept up to date. */
  #keep(snapshots: KeptSnapshot[]): void {
    const objects = new Set(snapshots.map((x) => x.objects));
    for (const x of this.#snapshots) if (!objects.has(x.objects)) x.objects.drop();
    this.#snapshots = snapshots;
  }

  #wake(): void {
    this.#revisionWaiters.reached(this.#revision);
  }
}
