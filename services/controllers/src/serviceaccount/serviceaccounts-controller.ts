// The service accounts controller (k8s pkg/controller/serviceaccount ServiceAccountsController):
// every active namespace has a `default` ServiceAccount, created when a namespace appears and
// again when it is deleted. Namespaces being deleted are left alone.
import { isAlreadyExists, isNotFound, reasonForError } from '@orch/apimachinery/errors';
import type { RestClient } from '@orch/apimachinery/client';
import { RestListerWatcher, SharedInformer } from '@orch/apimachinery/informer';
import type { Logger } from '@orch/component-base/logs';

type Json = Record<string, unknown>;

/** k8s DefaultServiceAccountsControllerOptions: ServiceAccounts ensured in every namespace. */
export const serviceAccountsToEnsure = ['default'];

interface Meta {
  name: string;
  namespace?: string;
  deletionTimestamp?: string;
}
const metaOf = (o: Json): Meta => (o['metadata'] ?? {}) as Meta;

export class ServiceAccountsController {
  readonly #client: RestClient;
  readonly #log: Logger;
  readonly #namespaces: SharedInformer;
  readonly #serviceAccounts: SharedInformer;
  readonly #queue = new Set<string>();
  readonly #abort = new AbortController();
  #working = false;

  constructor(client: RestClient, log: Logger) {
    this.#client = client;
    this.#log = log.child({ controller: 'serviceaccount' });
    this.#namespaces = new SharedInformer({
      listerWatcher: new RestListerWatcher(client, '/api/v1/namespaces'),
      name: 'namespaces',
      log: this.#log,
    });
    this.#serviceAccounts = new SharedInformer({
      listerWatcher: new RestListerWatcher(client, '/api/v1/serviceaccounts'),
      name: 'serviceaccounts',
      log: this.#log,
    });
    const ns = (o: Json): void => this.#enqueue(metaOf(o).name);
    this.#namespaces.addEventHandler({ onAdd: ns, onUpdate: (_old, o) => ns(o) });
    this.#serviceAccounts.addEventHandler({
      onDelete: (o) => {
        const m = metaOf(o);
        if (m.namespace && serviceAccountsToEnsure.includes(m.name)) this.#enqueue(m.namespace);
      },
    });
  }

  /** Runs until stop(): both informers, then every namespace queued is synced. */
  async run(): Promise<void> {
    const stopped = new Promise<void>((resolve) =>
      this.#abort.signal.addEventListener('abort', () => resolve(), { once: true })
    );
    await Promise.all([this.#serviceAccounts.start(), this.#namespaces.start()]);
    void this.#work();
    await stopped;
  }

  stop(): void {
    this.#namespaces.stop();
    this.#serviceAccounts.stop();
    this.#abort.abort();
  }

  #enqueue(namespace: string): void {
    this.#queue.add(namespace);
    if (this.#namespaces.synced && this.#serviceAccounts.synced) void this.#work();
  }

  async #work(): Promise<void> {
    if (this.#working) return;
    this.#working = true;
    try {
      while (this.#queue.size > 0 && !this.#abort.signal.aborted) {
        const name = this.#queue.values().next().value as string;
        this.#queue.delete(name);
        try {
          await this.syncNamespace(name);
        } catch (err) {
          if (this.#abort.signal.aborted) return;
          this.#log.warn('service accounts sync failed; retrying', { namespace: name, err });
          setTimeout(() => this.#enqueue(name), 2000).unref();
        }
      }
    } finally {
      this.#working = false;
    }
  }

  /** k8s ServiceAccountsController.syncNamespace. */
  async syncNamespace(name: string): Promise<void> {
    const ns = this.#namespaces.get(name);
    if (!ns) return;
    const phase = (ns['status'] as { phase?: string } | undefined)?.phase ?? 'Active';
    if (phase !== 'Active' || metaOf(ns).deletionTimestamp) return;
    for (const sa of serviceAccountsToEnsure) {
      if (this.#serviceAccounts.get(`${name}/${sa}`)) continue;
      try {
        await this.#client.request('POST', `/api/v1/namespaces/${name}/serviceaccounts`, {
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: { name: sa },
        });
        this.#log.info('created service account', { namespace: name, name: sa });
      } catch (err) {
        // Exists already (the informer lags), or the namespace is going or gone.
        if (isAlreadyExists(err) || reasonForError(err) === 'Forbidden' || isNotFound(err))
          continue;
        throw err;
      }
    }
  }
}
