// What the PVC and PV protection controllers share (k8s pkg/controller/volume/pvcprotection and
// pvprotection, pkg/controller/util/protection): a queue of object keys worked one at a time, the
// StorageObjectInUseProtection finalizer added to objects that lack it (those created while the
// admission plugin was off) and removed, by an update with the object's resourceVersion, from a
// deleted object nothing uses any more. A failed sync is retried after 2 s (a conflict after
// 200 ms, once the informer has the newer object).
import { isConflict, isNotFound } from '@orch/apimachinery/errors';
import type { RestClient } from '@orch/apimachinery/client';
import type { Logger } from '@orch/component-base/logs';

type Json = Record<string, unknown>;
interface Meta {
  name: string;
  namespace?: string;
  deletionTimestamp?: string;
  finalizers?: string[];
}
export const metaOf = (o: Json): Meta => (o['metadata'] ?? {}) as Meta;

/** IsDeletionCandidate: being deleted and still holding the finalizer. */
export const isDeletionCandidate = (o: Json, finalizer: string): boolean =>
  !!metaOf(o).deletionTimestamp && (metaOf(o).finalizers ?? []).includes(finalizer);

/** NeedToAddFinalizer: not being deleted and without the finalizer. */
export const needToAddFinalizer = (o: Json, finalizer: string): boolean =>
  !metaOf(o).deletionTimestamp && !(metaOf(o).finalizers ?? []).includes(finalizer);

export abstract class ProtectionController {
  protected readonly client: RestClient;
  protected readonly log: Logger;
  readonly #queue = new Set<string>();
  protected readonly abort = new AbortController();
  #working = false;

  constructor(client: RestClient, log: Logger) {
    this.client = client;
    this.log = log;
  }

  /** Whether the informers have synced (nothing is worked before). */
  protected abstract get synced(): boolean;

  /** Syncs one key; throws to be retried. */
  protected abstract process(key: string): Promise<void>;

  protected enqueue(key: string): void {
    this.#queue.add(key);
    if (this.synced) void this.work();
  }

  protected async work(): Promise<void> {
    if (this.#working) return;
    this.#working = true;
    try {
      while (this.#queue.size > 0 && !this.abort.signal.aborted) {
        const key = this.#queue.values().next().value as string;
        this.#queue.delete(key);
        try {
          await this.process(key);
        } catch (err) {
          if (this.abort.signal.aborted) return;
          if (!isConflict(err)) this.log.warn('sync failed; retrying', { key, err });
          setTimeout(() => this.enqueue(key), isConflict(err) ? 200 : 2000).unref();
        }
      }
    } finally {
      this.#working = false;
    }
  }

  /** Writes the object back with the finalizer added or removed (addFinalizer, removeFinalizer). */
  protected async setFinalizer(
    path: string,
    o: Json,
    finalizer: string,
    on: boolean
  ): Promise<void> {
    const meta = metaOf(o);
    const rest = (meta.finalizers ?? []).filter((f) => f !== finalizer);
    const next = { ...o, metadata: { ...meta, finalizers: on ? [...rest, finalizer] : rest } };
    try {
      await this.client.request('PUT', path, next);
      this.log.info(on ? 'added protection finalizer' : 'removed protection finalizer', {
        name: meta.name,
        ...(meta.namespace ? { namespace: meta.namespace } : {}),
      });
    } catch (err) {
      if (isNotFound(err)) return; // gone meanwhile
      throw err;
    }
  }
}
