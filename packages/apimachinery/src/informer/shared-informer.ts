// A shared informer (client-go tools/cache SharedInformer): a Reflector over a ListerWatcher
// (the storage and NATS one by default, the public API's for the controllers), with the
// objects by key and the event handlers. A relist (after the
// history of a gap was gone) shows handlers the differences as adds, updates and deletes.
import type { NatsConnection } from 'nats';
import type { WatchMessage } from '../watch/index.js';
import type {
  ChangeType,
  Informer,
  InformerEventHandler,
  ListerWatcher,
  ReflectorSink,
} from './interfaces.js';
import { objectKey } from './object-key.js';
import { Reflector } from './reflector.js';
import type { ReflectorLogger } from './reflector.js';
import { StorageListerWatcher } from './storage-lister-watcher.js';
import type { InformerStorage } from './storage-lister-watcher.js';

type Obj = Record<string, unknown>;

export type InformerLogger = ReflectorLogger;

export interface StorageInformerOptions {
  storage: InformerStorage;
  nats: NatsConnection;
  /** Storage key prefix of the type, `/registry/<group>/<resource>/`. */
  prefix: string;
  log?: InformerLogger;
  /** Page size of the list (0: everything in one call). */
  pageSize?: number;
  /** Pause between failed attempts to list or watch. */
  retryMs?: number;
  /** Test hook: drop a message as if NATS had lost it. */
  dropMessage?: (m: WatchMessage) => boolean;
  /** Called after a gap was repaired from history (events replayed) or by a relist (-1). */
  onRepair?: (events: number) => void;
}

/** An informer over another source, e.g. the public API (RestListerWatcher). */
export interface ListerWatcherInformerOptions {
  listerWatcher: ListerWatcher;
  /** Names the source in logs, e.g. the collection's path. */
  name: string;
  log?: InformerLogger;
  /** Pause between failed attempts to list or watch. */
  retryMs?: number;
}

export type SharedInformerOptions = StorageInformerOptions | ListerWatcherInformerOptions;

export class SharedInformer implements Informer, ReflectorSink {
  /** The storage prefix, or the name given with another ListerWatcher. */
  readonly name: string;
  readonly #reflector: Reflector;
  readonly #onRepair: ((events: number) => void) | undefined;
  readonly #items = new Map<string, Obj>();
  readonly #handlers: InformerEventHandler[] = [];
  #lastRevision = 0;
  #synced = false;
  #syncWaiters: (() => void)[] = [];

  constructor(opts: SharedInformerOptions) {
    let lw: ListerWatcher;
    if ('listerWatcher' in opts) {
      lw = opts.listerWatcher;
      this.name = opts.name;
    } else {
      lw = new StorageListerWatcher({
        storage: opts.storage,
        nats: opts.nats,
        prefix: opts.prefix,
        ...(opts.log ? { log: opts.log } : {}),
        ...(opts.pageSize !== undefined ? { pageSize: opts.pageSize } : {}),
        ...(opts.dropMessage ? { dropMessage: opts.dropMessage } : {}),
        ...(opts.onRepair ? { onRepair: opts.onRepair } : {}),
      });
      this.name = opts.prefix;
      this.#onRepair = opts.onRepair;
    }
    this.#reflector = new Reflector(lw, this, {
      name: this.name,
      ...(opts.log ? { log: opts.log } : {}),
      ...(opts.retryMs !== undefined ? { retryMs: opts.retryMs } : {}),
    });
  }

  addEventHandler(h: InformerEventHandler): void {
    this.#handlers.push(h);
  }

  get synced(): boolean {
    return this.#synced;
  }

  /** The revision the cache is complete up to. */
  get lastRevision(): number {
    return this.#lastRevision;
  }

  get(key: string): Obj | undefined {
    return this.#items.get(key);
  }

  list(): Obj[] {
    return [...this.#items.values()];
  }

  /** Lists and watches; resolves once the cache is synced (or stop() came first). */
  async start(): Promise<void> {
    const stopped = this.#reflector.run();
    await Promise.race([this.waitForSync(), stopped]);
  }

  /** Resolves when the cache is synced. */
  waitForSync(): Promise<void> {
    return this.#synced ? Promise.resolve() : new Promise((r) => this.#syncWaiters.push(r));
  }

  stop(): void {
    this.#reflector.stop();
  }

  replace(items: Obj[], revision: number): void {
    const fresh = new Map(items.map((o) => [objectKey(o), o]));
    for (const [k, old] of this.#items) if (!fresh.has(k)) this.#apply('DELETED', old);
    for (const o of fresh.values()) this.#apply('MODIFIED', o);
    this.#lastRevision = revision;
    for (const h of this.#handlers) h.onReplace?.(revision);
    if (this.#synced) {
      this.#onRepair?.(-1);
      return;
    }
    this.#synced = true;
    for (const w of this.#syncWaiters.splice(0)) w();
  }

  change(type: ChangeType, object: Obj, revision: number): void {
    this.#lastRevision = revision;
    this.#apply(type, object);
  }

  progress(revision: number): void {
    this.#lastRevision = revision;
  }

  #apply(type: ChangeType, obj: Obj): void {
    const key = objectKey(obj);
    const old = this.#items.get(key);
    if (type === 'DELETED') {
      if (!old) return;
      this.#items.delete(key);
      for (const h of this.#handlers) h.onDelete?.(obj);
      return;
    }
    this.#items.set(key, obj);
    for (const h of this.#handlers) {
      if (old) h.onUpdate?.(old, obj);
      else h.onAdd?.(obj);
    }
  }
}
