// The namespace controller: a namespace being deleted (Terminating) has everything in it
// deleted, resource by resource as discovery lists them; once nothing is left, its
// `orch.io/namespace` finalizer is removed through the finalize subresource, and the gateway
// removes the namespace.
import { isNotFound } from '@orch/apimachinery/errors';
import type * as coreV1 from '@orch/api/core/v1';
import type { ObjectMeta } from '@orch/apimachinery/meta';
import type { Logger } from '@orch/component-base/logs';
import type { RestClient } from '@orch/apimachinery/client';
import { RestListerWatcher, SharedInformer } from '@orch/apimachinery/informer';

export const namespaceFinalizer = 'orch.io/namespace';

type Json = Record<string, unknown>;
/** A stored namespace: the generated kind with its metadata and name. */
type Namespace = coreV1.Namespace & { metadata: ObjectMeta & { name: string } };

interface NamespacedResource {
  path: string; // /api/v1 or /apis/<g>/<v>
  resource: string;
  verbs: string[];
}

export class NamespaceController {
  readonly #client: RestClient;
  readonly #log: Logger;
  readonly #queue = new Set<string>();
  readonly #abort = new AbortController();
  readonly #informer: SharedInformer;
  #working = false;

  constructor(client: RestClient, log: Logger) {
    this.#client = client;
    this.#log = log.child({ controller: 'namespace' });
    this.#informer = new SharedInformer({
      listerWatcher: new RestListerWatcher(client, '/api/v1/namespaces'),
      name: 'namespaces',
      log: this.#log,
    });
    // The informer hands the decoded JSON of stored namespaces.
    const enqueue = (o: Record<string, unknown>): void => this.#enqueue(o as Namespace);
    this.#informer.addEventHandler({ onAdd: enqueue, onUpdate: (_old, o) => enqueue(o) });
  }

  /** Lists and watches namespaces through the informer; every terminating one is queued. Runs until stop(). */
  async run(): Promise<void> {
    const stopped = new Promise<void>((resolve) =>
      this.#abort.signal.addEventListener('abort', () => resolve(), { once: true })
    );
    await this.#informer.start();
    await stopped;
  }

  stop(): void {
    this.#informer.stop();
    this.#abort.abort();
  }

  #enqueue(ns: Namespace): void {
    if (!ns.metadata.deletionTimestamp) return;
    this.#queue.add(ns.metadata.name);
    void this.#work();
  }

  async #work(): Promise<void> {
    if (this.#working) return;
    this.#working = true;
    try {
      while (this.#queue.size > 0 && !this.#abort.signal.aborted) {
        const name = this.#queue.values().next().value as string;
        this.#queue.delete(name);
        try {
          const done = await this.syncNamespace(name);
          if (!done) setTimeout(() => (this.#queue.add(name), void this.#work()), 1000);
        } catch (err) {
          this.#log.warn('namespace sync failed; retrying', { name, err });
          setTimeout(() => (this.#queue.add(name), void this.#work()), 2000);
        }
      }
    } finally {
      this.#working = false;
    }
  }

  /** One pass over a terminating namespace; true when it is finalized (or gone). */
  async syncNamespace(name: string): Promise<boolean> {
    let ns: Namespace;
    try {
      ns = (await this.#client.request('GET', `/api/v1/namespaces/${name}`)) as Namespace; // the API answers the stored namespace
    } catch (err) {
      if (isNotFound(err)) return true;
      throw err;
    }
    if (!ns.metadata.deletionTimestamp) return true;
    let remaining = 0;
    for (const r of await this.#namespacedResources()) {
      const path = `${r.path}/namespaces/${name}/${r.resource}`;
      if (r.verbs.includes('deletecollection')) await this.#client.request('DELETE', path);
      const left = await this.#client.request('GET', path);
      remaining += ((left['items'] as Json[]) ?? []).length;
    }
    if (remaining > 0) {
      this.#log.info('waiting for namespace content to go', { name, remaining });
      return false;
    }
    const finalizers = (ns.spec?.finalizers ?? []).filter((f) => f !== namespaceFinalizer);
    await this.#client.request('PUT', `/api/v1/namespaces/${name}/finalize`, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, resourceVersion: ns.metadata.resourceVersion },
      spec: { finalizers },
    });
    this.#log.info('namespace finalized', { name });
    return true;
  }

  async #namespacedResources(): Promise<NamespacedResource[]> {
    const out: NamespacedResource[] = [];
    const versions = [{ path: '/api/v1' }];
    const groups = await this.#client.request('GET', '/apis');
    for (const g of (groups['groups'] as { preferredVersion: { groupVersion: string } }[]) ?? []) {
      versions.push({ path: `/apis/${g.preferredVersion.groupVersion}` });
    }
    for (const v of versions) {
      const list = await this.#client.request('GET', v.path);
      for (const r of (list['resources'] as {
        name: string;
        namespaced: boolean;
        verbs: string[];
      }[]) ?? []) {
        if (!r.namespaced || r.name.includes('/') || !r.verbs.includes('list')) continue;
        out.push({ path: v.path, resource: r.name, verbs: r.verbs });
      }
    }
    return out;
  }
}
