// A shared informer (client-go tools/cache SharedInformer) over the suite's own plumbing: a
// consistent list from the storage service, then every change from the NATS subject of the
// type. The per-subject prevRevision chain and the publisher's epoch reveal a lost message; the
// gap is repaired from storage's history replay, and only when that history is gone (410) is
// the type listed again (handlers then see the differences as adds, updates and deletes).
//
// The gateway's watch/type-feed.ts follows the same chain for its watchers, with a replay
// buffer for many listeners; this one keeps the objects themselves, for services that answer
// from memory (the authorizer, admission).
import type { NatsConnection, Subscription } from 'nats';
import { toStatusError } from '../errors/index.js';
import type { DecodedHistoryEvent, ListResponse } from '../grpc/index.js';
import type { ListOptions } from '../storage/index.js';
import { decodeWatchMessage, subjectForKey } from '../watch/index.js';
import type { WatchMessage } from '../watch/index.js';
import type { Informer, InformerEventHandler } from './interfaces.js';

type Obj = Record<string, unknown>;

/** What the informer needs of a storage client (StorageClient satisfies it). */
export interface InformerStorage {
  list(req: ListOptions): Promise<ListResponse>;
  history(
    prefix: string,
    afterRevision: number,
    onEvent: (e: DecodedHistoryEvent) => void
  ): Promise<number>;
}

export interface InformerLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

export interface SharedInformerOptions {
  storage: InformerStorage;
  nats: NatsConnection;
  /** Storage key prefix of the type, `/registry/<group>/<resource>/`. */
  prefix: string;
  log?: InformerLogger;
  /** Page size of the list (0: everything in one call). */
  pageSize?: number;
  /** Pause between failed attempts to list. */
  retryMs?: number;
  /** Test hook: drop a message as if NATS had lost it. */
  dropMessage?: (m: WatchMessage) => boolean;
  /** Called after a gap was repaired from history (events replayed) or by a relist (-1). */
  onRepair?: (events: number) => void;
}

/** The cache key of an object: `<namespace>/<name>`, or `<name>` when cluster-scoped. */
export function objectKey(obj: Obj): string {
  const m = (obj['metadata'] ?? {}) as { namespace?: string; name?: string };
  return m.namespace ? `${m.namespace}/${m.name ?? ''}` : (m.name ?? '');
}

const silent: InformerLogger = { info: () => undefined, warn: () => undefined };

export class SharedInformer implements Informer {
  readonly prefix: string;
  readonly subject: string;
  readonly #storage: InformerStorage;
  readonly #nats: NatsConnection;
  readonly #log: InformerLogger;
  readonly #pageSize: number;
  readonly #retryMs: number;
  readonly #dropMessage: ((m: WatchMessage) => boolean) | undefined;
  readonly #onRepair: ((events: number) => void) | undefined;
  readonly #items = new Map<string, Obj>();
  readonly #handlers: InformerEventHandler[] = [];
  #sub: Subscription | undefined;
  #chain: Promise<void> = Promise.resolve();
  /** Messages received while the list is read, processed once it is in. */
  #held: WatchMessage[] | undefined;
  #epoch = '';
  #lastRevision = 0;
  #synced = false;
  #stopped = false;
  #syncWaiters: (() => void)[] = [];

  constructor(opts: SharedInformerOptions) {
    this.prefix = opts.prefix;
    const subject = subjectForKey(`${opts.prefix}x`);
    if (!subject) throw new Error(`no watch subject for prefix ${opts.prefix}`);
    this.subject = subject;
    this.#storage = opts.storage;
    this.#nats = opts.nats;
    this.#log = opts.log ?? silent;
    this.#pageSize = opts.pageSize ?? 500;
    this.#retryMs = opts.retryMs ?? 1000;
    this.#dropMessage = opts.dropMessage;
    this.#onRepair = opts.onRepair;
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

  /** Subscribes, lists, and resolves once the cache is synced (then follows changes until stop()). */
  async start(): Promise<void> {
    this.#held = [];
    this.#sub = this.#nats.subscribe(this.subject, {
      callback: (err, msg) => {
        if (err)
          return this.#log.warn('informer subscription error', {
            subject: this.subject,
            err: String(err),
          });
        const m = decodeWatchMessage(msg.data);
        if (this.#dropMessage?.(m)) return;
        if (this.#held) this.#held.push(m);
        else this.#enqueue(() => this.#process(m));
      },
    });
    // The flush makes the server know the subscription before the list, so that no change
    // falls between them. While NATS is away it fails (at the client's next reconnect attempt);
    // the list goes ahead then: NATS is not needed to list, and a change the subscription missed
    // is found by the chain (prevRevision) of the next message and repaired from history.
    await this.#nats.flush().catch((err: unknown) =>
      this.#log.warn('informer starts while NATS is away', {
        subject: this.subject,
        err: String(err),
      })
    );
    await this.#relist();
  }

  /** Resolves when the cache is synced. */
  waitForSync(): Promise<void> {
    return this.#synced ? Promise.resolve() : new Promise((r) => this.#syncWaiters.push(r));
  }

  stop(): void {
    this.#stopped = true;
    this.#sub?.unsubscribe();
  }

  #enqueue(step: () => Promise<void>): void {
    this.#chain = this.#chain
      .then(step)
      .catch((e: unknown) =>
        this.#log.warn('informer step failed', { subject: this.subject, err: String(e) })
      );
  }

  /** Lists (retrying until it succeeds), replaces the cache, then processes held messages. */
  async #relist(): Promise<void> {
    while (!this.#stopped) {
      try {
        const items: Obj[] = [];
        let revision = 0;
        let continueToken = '';
        do {
          const page = await this.#storage.list({
            prefix: this.prefix,
            consistency: revision ? 'EXACT' : 'MOST_RECENT',
            ...(revision ? { revision } : {}),
            limit: this.#pageSize,
            continueToken,
          });
          items.push(...page.items);
          revision = page.revision;
          continueToken = page.continueToken;
        } while (continueToken);
        this.#replace(items);
        this.#lastRevision = revision;
        this.#epoch = '';
        break;
      } catch (err) {
        this.#log.warn('informer could not list; retrying', {
          prefix: this.prefix,
          err: toStatusError(err).message,
        });
        await new Promise((r) => setTimeout(r, this.#retryMs));
      }
    }
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const m of held) this.#enqueue(() => this.#process(m));
    this.#enqueue(async () => {
      this.#synced = true;
      for (const w of this.#syncWaiters.splice(0)) w();
    });
    await this.#chain;
  }

  #replace(items: Obj[]): void {
    const fresh = new Map(items.map((o) => [objectKey(o), o]));
    for (const [k, old] of this.#items) if (!fresh.has(k)) this.#apply('DELETED', old);
    for (const o of fresh.values()) this.#apply('MODIFIED', o);
  }

  async #process(m: WatchMessage): Promise<void> {
    if (this.#stopped) return;
    if (this.#epoch === '') this.#epoch = m.epoch;
    if (m.epoch !== this.#epoch || m.prevRevision > this.#lastRevision) {
      this.#epoch = m.epoch;
      await this.#repair(m.revision);
    }
    if (m.type === 'PROGRESS') {
      if (m.revision > this.#lastRevision) this.#lastRevision = m.revision;
      return;
    }
    if (m.revision <= this.#lastRevision) return;
    this.#lastRevision = m.revision;
    this.#apply(m.type, m.object);
  }

  /** Replays what was lost since the last revision; relists when the history is gone. */
  async #repair(seen: number): Promise<void> {
    const from = this.#lastRevision;
    let n = 0;
    try {
      const until = await this.#storage.history(this.prefix, from, (e) => {
        if (e.revision <= this.#lastRevision) return;
        n++;
        this.#lastRevision = e.revision;
        this.#apply(e.type, e.object);
      });
      if (until > this.#lastRevision) this.#lastRevision = until;
      this.#log.info('informer repaired a gap from storage history', {
        prefix: this.prefix,
        from,
        seen,
        events: n,
      });
      this.#onRepair?.(n);
    } catch (err) {
      this.#log.warn('informer could not repair a gap; relisting', {
        prefix: this.prefix,
        err: toStatusError(err).message,
      });
      this.#held = [];
      this.#onRepair?.(-1);
      // Relist outside the chain (it waits for the chain); the held messages follow it.
      void this.#relist();
    }
  }

  #apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: Obj): void {
    const key = objectKey(obj);
    const old = this.#items.get(key);
    if (type === 'DELETED') {
      if (!old) return;
      this.#items.delete(key);
      for (const h of this.#handlers) h.onDelete?.(old);
      return;
    }
    this.#items.set(key, obj);
    for (const h of this.#handlers) {
      if (old) h.onUpdate?.(old, obj);
      else h.onAdd?.(obj);
    }
  }
}
