// The gateway's watch caches: one Cacher per stored type (per storage prefix), started on first
// use, or at start for the types the gateway's own loops read; the readiness check naming the
// types not synced yet; the open watch count (k8s apiserver: one cacher per resource in
// storagebackend/factory, the informer-sync style readiness).
//
// A consistent read's revision comes from the publisher over NATS (StreamProgress
// .publishedRevision: one message each way, no etcd read), or, when it does not answer in time
// or cannot vouch for one, from storage's quorum read of etcd; after a failed ask, storage's for
// a second (docs/architecture.md, "Consistent reads").
import type { NatsConnection } from 'nats';
import type { StorageInterface } from '@orch/apimachinery/storage';
import { storagePrefix } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { StreamProgress } from '@orch/apimachinery/informer';
import type { Logger } from '@orch/component-base/logs';
import { Cacher } from './cacher.js';
import type { CacheHooks } from './cacher.js';
import { RevisionReader } from '@orch/apimachinery/storage';

export interface CachersOptions {
  storage: StorageInterface;
  nats: NatsConnection;
  log: Logger;
  /** The current revision of storage (a quorum read), for consistent reads the publisher does not answer. */
  currentRevision: () => Promise<number>;
  /** How long the publisher is given to answer a revision request (ms); 0: storage only. */
  publisherRevisionTimeoutMs?: number;
  hooks?: CacheHooks;
  consistentReadTimeoutMs?: number;
  freshWaitMs?: number;
  /** The gate ConsistentListFromCache. */
  consistentListFromCache?: boolean;
}

export class Cachers {
  readonly #cachers = new Map<string, Cacher>();
  readonly #opts: CachersOptions;
  readonly revisions: RevisionReader;
  readonly #stream: StreamProgress;
  #stopped = false;
  /** Revision reads by where they were answered. */
  readonly revisionSources = { publisher: 0, storage: 0 };
  /** Until then (Date.now()) revisions are read from storage: the publisher just failed to answer. */
  #storageUntil = 0;

  constructor(opts: CachersOptions) {
    this.#opts = opts;
    this.revisions = new RevisionReader(() => this.#currentRevision());
    this.#stream = new StreamProgress(opts.nats);
  }

  async #currentRevision(): Promise<number> {
    const timeoutMs = this.#opts.publisherRevisionTimeoutMs ?? 250;
    const stream = this.#stream;
    const observe = this.#opts.hooks?.onRevisionRead;
    if (timeoutMs > 0 && Date.now() >= this.#storageUntil && stream.connected && stream.trusted) {
      const started = performance.now();
      try {
        const revision = await stream.publishedRevision(timeoutMs);
        this.revisionSources.publisher++;
        observe?.('publisher', (performance.now() - started) / 1000);
        return revision;
      } catch (err) {
        this.#storageUntil = Date.now() + 1000;
        this.#opts.log.debug('the publisher gave no revision; reading storage', { err });
      }
    }
    const started = performance.now();
    this.revisionSources.storage++;
    const revision = await this.#opts.currentRevision();
    observe?.('storage', (performance.now() - started) / 1000);
    return revision;
  }

  /** The cacher of a type (not started: its first read, watch or start() starts it). */
  for(def: ResourceDefinition): Cacher {
    const prefix = storagePrefix(def);
    let c = this.#cachers.get(prefix);
    if (!c) {
      const o = this.#opts;
      c = new Cacher({
        prefix,
        storage: o.storage,
        nats: o.nats,
        log: o.log,
        revisions: this.revisions,
        streamProgress: this.#stream,
        ...(o.hooks ? { hooks: o.hooks } : {}),
        ...(o.consistentReadTimeoutMs !== undefined
          ? { consistentReadTimeoutMs: o.consistentReadTimeoutMs }
          : {}),
        ...(o.freshWaitMs !== undefined ? { freshWaitMs: o.freshWaitMs } : {}),
        ...(o.consistentListFromCache !== undefined
          ? { consistentListFromCache: o.consistentListFromCache }
          : {}),
      });
      this.#cachers.set(prefix, c);
      // After stop(), a late read of a new type (a loop finishing its turn) gets a stopped cacher.
      if (this.#stopped) c.stop();
      else this.#stream.start();
    }
    return c;
  }

  /** Started cachers. */
  all(): Cacher[] {
    return [...this.#cachers.values()].filter((c) => c.started);
  }

  /** The types whose required cache has not synced yet (readiness fails while any is). */
  notSynced(): string[] {
    return this.all()
      .filter((c) => c.required && !c.cache.synced)
      .map((c) => c.prefix);
  }

  openWatchCount(): number {
    let n = 0;
    for (const c of this.#cachers.values()) n += c.cache.listenerCount;
    return n;
  }

  stop(): void {
    this.#stopped = true;
    for (const c of this.#cachers.values()) c.stop();
    this.#stream.stop();
  }
}
