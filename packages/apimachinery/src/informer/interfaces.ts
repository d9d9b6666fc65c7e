// The one list-and-watch mechanism of the suite (client-go tools/cache: ListerWatcher,
// Reflector, Store, SharedInformer), as contracts. A Reflector lists through a ListerWatcher,
// hands the state to its sink, then watches from the list's revision; when the watch ends it
// watches again from the last revision it delivered, and when that history is gone (410) it
// lists again. Two sources implement ListerWatcher: storage plus the NATS change stream (gaps
// repaired from storage's history, for the services and the gateway's watch cache) and the
// public REST API (list and watch, for the controllers, as client-go does).
type Obj = Record<string, unknown>;

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** What a watch delivers, in strictly increasing revision order. */
export interface WatchSink {
  /** One change at `revision`; `prevObject` when the source has it (selector transitions). */
  change(type: ChangeType, object: Obj, revision: number, prevObject?: Obj): void;
  /** Nothing of this type changed up to `revision` (a bookmark). */
  progress(revision: number): void;
}

/** What a reflector delivers to its store (client-go cache.Store's Replace and the deltas). */
export interface ReflectorSink extends WatchSink {
  /** The complete state at `revision`, after a list or a relist. */
  replace(items: Obj[], revision: number): void;
}

/** One type's source of state and changes (client-go cache.ListerWatcher). */
export interface ListerWatcher {
  /** A consistent list of every object of the type and the revision it was read at. */
  list(signal: AbortSignal): Promise<{ items: Obj[]; revision: number }>;
  /**
   * Delivers every change after `fromRevision`, in order, until `signal` aborts (then
   * resolves). Rejects with a 410 StatusError when that history is gone (the reflector lists
   * again), or with any other error (the reflector watches again from the last revision it
   * delivered, after a pause).
   */
  watch(fromRevision: number, sink: WatchSink, signal: AbortSignal): Promise<void>;
  /**
   * Optional: asks the running watch to report progress up to `revision` (a bookmark after
   * every change up to it) as soon as it can prove it, without writing (etcd's progress
   * notify, which upstream's cacher requests for consistent reads). Resolves true once reported,
   * false when it cannot within `timeoutMs` (the caller then waits for progress as it comes).
   */
  requestProgress?(revision: number, timeoutMs: number): Promise<boolean>;
}

/** Notified after the cache changed (k8s ResourceEventHandler). */
export interface InformerEventHandler {
  onAdd?(obj: Obj): void;
  onUpdate?(oldObj: Obj, obj: Obj): void;
  /** The object's last state: from a change, at its deletion revision (its resourceVersion). */
  onDelete?(obj: Obj): void;
  /**
   * A list replaced the state at `revision` (the first list, and every relist after the history
   * of a gap was gone); the adds, updates and deletes it implied were delivered before. A handler
   * that keeps more than the objects (a revision it must not miss a change after) starts over.
   */
  onReplace?(revision: number): void;
}

/** The read side of an informer: what the suite's caches and loops depend on. */
export interface Informer {
  addEventHandler(h: InformerEventHandler): void;
  readonly synced: boolean;
  waitForSync(): Promise<void>;
  /** By key: `<namespace>/<name>`, or `<name>` when cluster-scoped (objectKey). */
  get(key: string): Obj | undefined;
  list(): Obj[];
  /** The revision the cache is complete up to. */
  readonly lastRevision: number;
}
