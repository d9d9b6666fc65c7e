// The garbage collector (k8s pkg/controller/garbagecollector): a graph of owners and dependents
// kept by informers over every deletable resource (discovery through the public API, again
// every 30 s for new ones), and two queues as upstream's: attemptToDelete (a dependent whose
// owners may be gone, or an owner deleting its dependents in the foreground) and
// attemptToOrphan (an owner deleted with the `orphan` finalizer). Owners are checked by uid
// against a live GET (an owner recreated with the same name is another owner); a namespaced
// owner is looked for in the dependent's namespace (so a cross-namespace reference is
// dangling, as upstream), and a cluster-scoped dependent naming a namespaced owner is invalid:
// logged and left alone. Every write goes through the public API with the collector's identity.
import { isConflict, isNotFound } from '@orch/apimachinery/errors';
import type { RestClient } from '@orch/apimachinery/client';
import { RestListerWatcher, SharedInformer } from '@orch/apimachinery/informer';
import type { Logger } from '@orch/component-base/logs';
import { discover, kindKey, objectPath } from './discovery.js';
import type { ApiResource } from './discovery.js';

type Json = Record<string, unknown>;

export const finalizerOrphanDependents = 'orphan';
export const finalizerDeleteDependents = 'foregroundDeletion';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

interface Meta {
  name: string;
  namespace?: string;
  uid: string;
  resourceVersion?: string;
  deletionTimestamp?: string;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
}

/** A node of the graph (k8s node): an object the informers hold. */
interface GraphNode {
  resource: ApiResource;
  meta: Meta;
}

/** Resources never collected (k8s GarbageCollectorControllerConfiguration GCIgnoredResources). */
const ignored = new Set(['/events', 'events.orch.io/events']);
const ignoredKey = (r: ApiResource): string => {
  const slash = r.apiVersion.indexOf('/');
  return `${slash < 0 ? '' : r.apiVersion.slice(0, slash)}/${r.resource}`;
};

const metaOf = (o: Json): Meta => (o['metadata'] ?? {}) as Meta;
const has = (m: Meta, f: string): boolean => (m.finalizers ?? []).includes(f);
const deletingDependents = (m: Meta): boolean =>
  !!m.deletionTimestamp && has(m, finalizerDeleteDependents);

export interface GarbageCollectorOptions {
  /** How often discovery runs again for new resources (k8s: 30 s). */
  resyncMs?: number;
  workers?: number;
}

export class GarbageCollector {
  readonly #client: RestClient;
  readonly #log: Logger;
  readonly #opts: Required<GarbageCollectorOptions>;
  readonly #abort = new AbortController();
  readonly #informers = new Map<string, SharedInformer>();
  /** uid → node. */
  readonly #nodes = new Map<string, GraphNode>();
  /** owner uid → dependent uids. */
  readonly #dependents = new Map<string, Set<string>>();
  #byKind = new Map<string, ApiResource>();
  readonly #toDelete = new WorkQueue();
  readonly #toOrphan = new WorkQueue();
  #timer: NodeJS.Timeout | undefined;

  constructor(client: RestClient, log: Logger, opts: GarbageCollectorOptions = {}) {
    this.#client = client;
    this.#log = log.child({ controller: 'garbagecollector' });
    this.#opts = { resyncMs: opts.resyncMs ?? 30_000, workers: opts.workers ?? 5 };
  }

  /** Starts the informers, waits for them to sync, then runs the workers until stop(). */
  async run(): Promise<void> {
    await this.#sync();
    if (this.#abort.signal.aborted) return;
    this.#log.info('all resource monitors have synced; proceeding to collect garbage');
    const workers: Promise<void>[] = [];
    for (let i = 0; i < this.#opts.workers; i++) {
      workers.push(
        this.#toDelete.work(this.#abort.signal, (uid) => this.#attemptToDelete(uid), this.#log)
      );
    }
    workers.push(
      this.#toOrphan.work(this.#abort.signal, (uid) => this.#attemptToOrphan(uid), this.#log)
    );
    const resync = (): void => {
      this.#timer = setTimeout(() => {
        void this.#sync()
          .catch((err: unknown) => this.#log.warn('discovery failed', { err }))
          .finally(() => !this.#abort.signal.aborted && resync());
      }, this.#opts.resyncMs);
    };
    resync();
    await Promise.all(workers);
  }

  stop(): void {
    this.#abort.abort();
    clearTimeout(this.#timer);
    for (const i of this.#informers.values()) i.stop();
    this.#toDelete.wake();
    this.#toOrphan.wake();
  }

  /** Discovery, and an informer for each deletable resource not watched yet. */
  async #sync(): Promise<void> {
    const found = await discover(this.#client);
    this.#byKind = found.byKind;
    const starting: Promise<void>[] = [];
    for (const r of found.deletable) {
      const path = `${r.base}/${r.resource}`;
      if (this.#informers.has(path) || ignored.has(ignoredKey(r))) continue;
      const informer = new SharedInformer({
        listerWatcher: new RestListerWatcher(this.#client, path),
        name: path,
        log: this.#log,
      });
      informer.addEventHandler({
        onAdd: (o) => this.#observe(r, undefined, o),
        onUpdate: (old, o) => this.#observe(r, old, o),
        onDelete: (o) => this.#removed(o),
      });
      this.#informers.set(path, informer);
      starting.push(informer.start());
    }
    await Promise.all(starting);
  }

  /** k8s GraphBuilder.processGraphChanges for an add or update. */
  #observe(resource: ApiResource, oldObj: Json | undefined, obj: Json): void {
    const meta = metaOf(obj);
    if (!meta.uid) return;
    const old = oldObj ? metaOf(oldObj) : this.#nodes.get(meta.uid)?.meta;
    this.#nodes.set(meta.uid, { resource, meta });
    const owners = meta.ownerReferences ?? [];
    const before = new Set((old?.ownerReferences ?? []).map((r) => r.uid));
    const now = new Set(owners.map((r) => r.uid));
    for (const uid of before) {
      if (now.has(uid)) continue;
      this.#dependents.get(uid)?.delete(meta.uid);
      // A removed reference may unblock an owner waiting for its dependents.
      const owner = this.#nodes.get(uid);
      if (owner && deletingDependents(owner.meta)) this.#toDelete.add(uid);
    }
    for (const uid of now) {
      let set = this.#dependents.get(uid);
      if (!set) this.#dependents.set(uid, (set = new Set()));
      set.add(meta.uid);
    }
    // A dependent whose owners are absent from the graph, or deleting their dependents, is
    // checked (k8s: a virtual node for an unseen owner goes to attemptToDelete).
    const referencesChanged = !old || [...now].some((u) => !before.has(u));
    if (
      owners.length > 0 &&
      (referencesChanged ||
        owners.some((r) => {
          const n = this.#nodes.get(r.uid);
          return !n || deletingDependents(n.meta);
        }))
    ) {
      this.#toDelete.add(meta.uid);
    }
    if (meta.deletionTimestamp) {
      if (has(meta, finalizerOrphanDependents)) this.#toOrphan.add(meta.uid);
      if (has(meta, finalizerDeleteDependents)) {
        this.#toDelete.add(meta.uid);
        for (const dep of this.#dependents.get(meta.uid) ?? []) this.#toDelete.add(dep);
      }
    }
  }

  /** k8s processGraphChanges for a deletion: dependents and waiting owners are looked at again. */
  #removed(obj: Json): void {
    const meta = metaOf(obj);
    const node = this.#nodes.get(meta.uid);
    if (!node) return;
    this.#nodes.delete(meta.uid);
    for (const r of node.meta.ownerReferences ?? []) {
      this.#dependents.get(r.uid)?.delete(meta.uid);
      const owner = this.#nodes.get(r.uid);
      if (owner && deletingDependents(owner.meta)) this.#toDelete.add(r.uid);
    }
    for (const dep of this.#dependents.get(meta.uid) ?? []) this.#toDelete.add(dep);
  }

  async #get(node: GraphNode): Promise<Json | undefined> {
    try {
      const o = await this.#client.request(
        'GET',
        objectPath(node.resource, node.meta.namespace, node.meta.name)
      );
      return metaOf(o).uid === node.meta.uid ? o : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** k8s attemptToDeleteItem. */
  async #attemptToDelete(uid: string): Promise<void> {
    const node = this.#nodes.get(uid);
    if (!node) return;
    const latest = await this.#get(node);
    if (!latest) return;
    const meta = metaOf(latest);
    if (meta.deletionTimestamp && !has(meta, finalizerDeleteDependents)) return;
    if (deletingDependents(meta)) return this.#processDeletingDependents(node, meta);
    const refs = meta.ownerReferences ?? [];
    if (refs.length === 0) return;
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of refs) {
      const state = await this.#ownerState(node, ref);
      if (state === 'invalid') return; // k8s namespacedOwnerOfClusterScopedObjectErr: no retry
      if (state === 'dangling') dangling.push(ref);
      else if (state === 'waiting') waiting.push(ref);
      else solid.push(ref);
    }
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return;
      // Solid owners keep it: the references to gone or waiting owners are removed.
      const gone = new Set([...dangling, ...waiting].map((r) => r.uid));
      this.#log.info('removing references to absent or waiting owners', {
        object: describe(node),
        owners: [...gone],
      });
      await this.#updateWithRetry(node, (m) => {
        m.ownerReferences = (m.ownerReferences ?? []).filter((r) => !gone.has(r.uid));
      });
      return;
    }
    const dependents = [...(this.#dependents.get(uid) ?? [])];
    if (waiting.length > 0 && dependents.length > 0) {
      // An owner waits for its dependents and this item has dependents of its own: it goes
      // in the foreground too, cycles made non-blocking first (k8s).
      if (
        dependents.some((d) => {
          const n = this.#nodes.get(d);
          return n && deletingDependents(n.meta);
        })
      ) {
        await this.#updateWithRetry(node, (m) => {
          m.ownerReferences = (m.ownerReferences ?? []).map((r) =>
            waiting.some((w) => w.uid === r.uid) ? { ...r, blockOwnerDeletion: false } : r
          );
        });
      }
      await this.#delete(node, meta, 'Foreground');
      return;
    }
    const policy = has(meta, finalizerOrphanDependents)
      ? 'Orphan'
      : has(meta, finalizerDeleteDependents)
        ? 'Foreground'
        : 'Background';
    this.#log.info('deleting dependent whose owners are gone', { object: describe(node), policy });
    await this.#delete(node, meta, policy);
  }

  /** k8s processDeletingDependentsItem: the finalizer goes once no blocking dependent is left. */
  async #processDeletingDependents(node: GraphNode, meta: Meta): Promise<void> {
    const blocking: string[] = [];
    for (const d of this.#dependents.get(meta.uid) ?? []) {
      const dep = this.#nodes.get(d);
      const ref = dep?.meta.ownerReferences?.find((r) => r.uid === meta.uid);
      if (ref?.blockOwnerDeletion) blocking.push(d);
    }
    if (blocking.length === 0) {
      this.#log.info('removing the foregroundDeletion finalizer', { object: describe(node) });
      await this.#updateWithRetry(node, (m) => {
        m.finalizers = (m.finalizers ?? []).filter((f) => f !== finalizerDeleteDependents);
      });
      return;
    }
    for (const d of blocking) {
      const dep = this.#nodes.get(d);
      if (dep && !deletingDependents(dep.meta)) this.#toDelete.add(d);
    }
  }

  /** k8s isDangling plus the classification of classifyReferences. */
  async #ownerState(
    node: GraphNode,
    ref: OwnerReference
  ): Promise<'solid' | 'dangling' | 'waiting' | 'invalid'> {
    const resource = this.#byKind.get(kindKey(ref.apiVersion, ref.kind));
    if (!resource) {
      throw new Error(`unable to resolve owner kind ${ref.kind} in ${ref.apiVersion}`);
    }
    if (!node.meta.namespace && resource.namespaced) {
      this.#log.warn(
        'cluster-scoped object refers to a namespaced owner, which is invalid; it is ignored',
        {
          object: describe(node),
          owner: `${ref.kind}/${ref.name}`,
          reason: 'OwnerRefInvalidNamespace',
        }
      );
      await this.#invalidNamespaceEvent(node, ref);
      return 'invalid';
    }
    let owner: Json | undefined;
    try {
      owner = await this.#client.request(
        'GET',
        objectPath(resource, node.meta.namespace, ref.name)
      );
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    const m = owner ? metaOf(owner) : undefined;
    if (!m || m.uid !== ref.uid) {
      // The owner's uid seen in another namespace: a reference across namespaces (k8s
      // reportInvalidNamespaceOwnerRef); the dependent is collected as dangling all the same.
      const elsewhere = this.#nodes.get(ref.uid);
      if (resource.namespaced && elsewhere && elsewhere.meta.namespace !== node.meta.namespace)
        await this.#invalidNamespaceEvent(node, ref);
      return 'dangling';
    }
    return deletingDependents(m) ? 'waiting' : 'solid';
  }

  /**
   * The Warning Event upstream records on a dependent whose owner reference cannot resolve in
   * its namespace (reason OwnerRefInvalidNamespace); a failure to record is only logged.
   */
  async #invalidNamespaceEvent(node: GraphNode, ref: OwnerReference): Promise<void> {
    const namespace = node.meta.namespace ?? 'default';
    const ts = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const refText = `[${ref.apiVersion}/${ref.kind}, namespace: ${node.meta.namespace ?? ''}, name: ${ref.name}, uid: ${ref.uid}]`;
    try {
      await this.#client.request('POST', `/api/v1/namespaces/${namespace}/events`, {
        apiVersion: 'v1',
        kind: 'Event',
        // client-go's recorder names an event `<object>.<unix nanoseconds in hex>`.
        metadata: {
          name: `${node.meta.name}.${(BigInt(Date.now()) * 1_000_000n).toString(16)}`,
          namespace,
        },
        involvedObject: {
          apiVersion: node.resource.apiVersion,
          kind: node.resource.kind,
          name: node.meta.name,
          ...(node.meta.namespace ? { namespace: node.meta.namespace } : {}),
          uid: node.meta.uid,
        },
        reason: 'OwnerRefInvalidNamespace',
        message: `ownerRef ${refText} does not exist in namespace ${JSON.stringify(node.meta.namespace ?? '')}`,
        type: 'Warning',
        source: { component: 'garbage-collector-controller' },
        reportingComponent: 'garbage-collector-controller',
        firstTimestamp: ts,
        lastTimestamp: ts,
        count: 1,
      });
    } catch (err) {
      this.#log.warn('could not record event', { err: (err as Error).message });
    }
  }

  /** k8s attemptToOrphanWorker: references to the owner removed, then its orphan finalizer. */
  async #attemptToOrphan(uid: string): Promise<void> {
    const node = this.#nodes.get(uid);
    if (!node) return;
    const latest = await this.#get(node);
    if (!latest) return;
    const meta = metaOf(latest);
    if (!meta.deletionTimestamp || !has(meta, finalizerOrphanDependents)) return;
    for (const d of [...(this.#dependents.get(uid) ?? [])]) {
      const dep = this.#nodes.get(d);
      if (!dep) continue;
      await this.#updateWithRetry(dep, (m) => {
        m.ownerReferences = (m.ownerReferences ?? []).filter((r) => r.uid !== uid);
      });
    }
    this.#log.info('dependents orphaned; removing the orphan finalizer', {
      object: describe(node),
    });
    await this.#updateWithRetry(node, (m) => {
      m.finalizers = (m.finalizers ?? []).filter((f) => f !== finalizerOrphanDependents);
    });
  }

  async #delete(node: GraphNode, meta: Meta, propagationPolicy: string): Promise<void> {
    try {
      await this.#client.request(
        'DELETE',
        objectPath(node.resource, node.meta.namespace, node.meta.name),
        {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          propagationPolicy,
          preconditions: { uid: meta.uid, resourceVersion: meta.resourceVersion },
        }
      );
    } catch (err) {
      if (isNotFound(err)) return;
      // Changed since it was read: look again.
      if (isConflict(err)) {
        this.#toDelete.add(meta.uid);
        return;
      }
      throw err;
    }
  }

  /** Read, change the metadata, write with the read resourceVersion; again on a conflict. */
  async #updateWithRetry(node: GraphNode, change: (m: Meta) => void): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const latest = await this.#get(node);
      if (!latest) return;
      const before = JSON.stringify(latest['metadata']);
      change(metaOf(latest));
      if (JSON.stringify(latest['metadata']) === before) return;
      try {
        await this.#client.request(
          'PUT',
          objectPath(node.resource, node.meta.namespace, node.meta.name),
          latest
        );
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (isConflict(err) && attempt < 5) continue;
        throw err;
      }
    }
  }
}

const describe = (n: GraphNode): string =>
  `${n.resource.apiVersion}/${n.resource.kind} ${n.meta.namespace ? `${n.meta.namespace}/` : ''}${n.meta.name} (${n.meta.uid})`;

/**
 * A deduplicating queue of uids with workers (client-go's workqueue): an item added while it is
 * being processed is processed again after; a failure retries it after a backoff.
 */
export class WorkQueue {
  readonly #pending = new Set<string>();
  readonly #active = new Set<string>();
  readonly #failures = new Map<string, number>();
  #waiters: (() => void)[] = [];

  add(uid: string): void {
    this.#pending.add(uid);
    this.#waiters.shift()?.();
  }

  wake(): void {
    for (const w of this.#waiters.splice(0)) w();
  }

  #next(): string | undefined {
    for (const uid of this.#pending) {
      if (this.#active.has(uid)) continue;
      this.#pending.delete(uid);
      return uid;
    }
    return undefined;
  }

  async work(signal: AbortSignal, fn: (uid: string) => Promise<void>, log: Logger): Promise<void> {
    while (!signal.aborted) {
      const uid = this.#next();
      if (uid === undefined) {
        await new Promise<void>((resolve) => this.#waiters.push(resolve));
        continue;
      }
      this.#active.add(uid);
      try {
        await fn(uid);
        this.#failures.delete(uid);
      } catch (err) {
        if (signal.aborted) return;
        const n = (this.#failures.get(uid) ?? 0) + 1;
        this.#failures.set(uid, n);
        const delay = Math.min(5 * 2 ** n, 60_000);
        log.warn('garbage collector item failed; retrying', {
          uid,
          err: (err as Error).message,
          delayMs: delay,
        });
        setTimeout(() => this.add(uid), delay).unref();
      } finally {
        this.#active.delete(uid);
        // A re-add during processing waits for #active to clear: let a worker take it.
        if (this.#pending.has(uid)) this.#waiters.shift()?.();
      }
    }
  }
}
