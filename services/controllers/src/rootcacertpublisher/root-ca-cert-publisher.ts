// The root CA certificate publisher (k8s pkg/controller/certificates/rootcacertpublisher): a
// ConfigMap `kube-root-ca.crt` in every namespace whose `ca.crt` is the cluster's CA bundle (what
// the ServiceAccount admission plugin's projected volume mounts, for pods to verify the API),
// with its `kubernetes.io/description` annotation. Created when a namespace appears, again
// when deleted, rewritten when its data or annotation changes.
import { StatusError, isNotFound } from '@orch/apimachinery/errors';
import type { RestClient } from '@orch/apimachinery/client';
import { RestListerWatcher, SharedInformer } from '@orch/apimachinery/informer';
import type { Logger } from '@orch/component-base/logs';

type Json = Record<string, unknown>;

/** RootCACertConfigMapName, DescriptionAnnotation and Description. */
export const rootCaCertConfigMapName = 'kube-root-ca.crt';
export const descriptionAnnotation = 'kubernetes.io/description';
export const description =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

interface Meta {
  name?: string;
  namespace?: string;
  annotations?: Record<string, string>;
}
const metaOf = (o: Json): Meta => (o['metadata'] ?? {}) as Meta;

/** v1.NamespaceTerminatingCause on a refused create. */
const isNamespaceTerminating = (err: unknown): boolean =>
  err instanceof StatusError &&
  (err.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');

/**
 * The ConfigMap as it should be, or undefined when `cm` already is (same data, a description).
 * Other annotations, labels and the rest of the object are kept.
 */
export function publishedConfigMap(cm: Json, rootCa: string): Json | undefined {
  const data = (cm['data'] ?? {}) as Record<string, string>;
  const keys = Object.keys(data);
  const annotations = metaOf(cm).annotations ?? {};
  if (keys.length === 1 && data['ca.crt'] === rootCa && annotations[descriptionAnnotation]) {
    return undefined;
  }
  return {
    ...cm,
    metadata: {
      ...metaOf(cm),
      annotations: { ...annotations, [descriptionAnnotation]: description },
    },
    data: { 'ca.crt': rootCa },
  };
}

export class RootCaCertPublisher {
  readonly #client: RestClient;
  readonly #log: Logger;
  readonly #rootCa: string;
  readonly #namespaces: SharedInformer;
  readonly #configMaps: SharedInformer;
  readonly #queue = new Set<string>();
  readonly #abort = new AbortController();
  #working = false;

  constructor(client: RestClient, log: Logger, rootCa: string) {
    this.#client = client;
    this.#log = log.child({ controller: 'root-ca-cert-publisher' });
    this.#rootCa = rootCa;
    this.#namespaces = new SharedInformer({
      listerWatcher: new RestListerWatcher(client, '/api/v1/namespaces'),
      name: 'namespaces',
      log: this.#log,
    });
    this.#configMaps = new SharedInformer({
      listerWatcher: new RestListerWatcher(client, '/api/v1/configmaps'),
      name: 'configmaps',
      log: this.#log,
    });
    this.#namespaces.addEventHandler({
      onAdd: (ns) => this.#enqueue(metaOf(ns).name ?? ''),
      onUpdate: (_old, ns) => {
        const phase = (ns['status'] as { phase?: string } | undefined)?.phase;
        if (phase === 'Active') this.#enqueue(metaOf(ns).name ?? '');
      },
    });
    const cm = (o: Json): void => {
      const { name, namespace } = metaOf(o);
      if (name === rootCaCertConfigMapName && namespace) this.#enqueue(namespace);
    };
    this.#configMaps.addEventHandler({ onUpdate: (_old, o) => cm(o), onDelete: cm });
  }

  async run(): Promise<void> {
    const stopped = new Promise<void>((resolve) =>
      this.#abort.signal.addEventListener('abort', () => resolve(), { once: true })
    );
    await Promise.all([this.#configMaps.start(), this.#namespaces.start()]);
    void this.#work();
    await stopped;
  }

  stop(): void {
    this.#namespaces.stop();
    this.#configMaps.stop();
    this.#abort.abort();
  }

  #enqueue(namespace: string): void {
    if (!namespace) return;
    this.#queue.add(namespace);
    if (this.#namespaces.synced && this.#configMaps.synced) void this.#work();
  }

  async #work(): Promise<void> {
    if (this.#working) return;
    this.#working = true;
    try {
      while (this.#queue.size > 0 && !this.#abort.signal.aborted) {
        const ns = this.#queue.values().next().value as string;
        this.#queue.delete(ns);
        try {
          await this.syncNamespace(ns);
        } catch (err) {
          if (this.#abort.signal.aborted) return;
          this.#log.warn('syncing namespace failed; retrying', { namespace: ns, err });
          setTimeout(() => this.#enqueue(ns), 2000).unref();
        }
      }
    } finally {
      this.#working = false;
    }
  }

  /** syncNamespace. */
  async syncNamespace(ns: string): Promise<void> {
    const base = `/api/v1/namespaces/${encodeURIComponent(ns)}/configmaps`;
    const cm = this.#configMaps.get(`${ns}/${rootCaCertConfigMapName}`);
    if (!cm) {
      try {
        await this.#client.request('POST', base, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: {
            name: rootCaCertConfigMapName,
            annotations: { [descriptionAnnotation]: description },
          },
          data: { 'ca.crt': this.#rootCa },
        });
      } catch (err) {
        // Not retried when the namespace is gone or terminating.
        if (isNotFound(err) || isNamespaceTerminating(err)) return;
        throw err;
      }
      return;
    }
    const next = publishedConfigMap(cm, this.#rootCa);
    if (next) await this.#client.request('PUT', `${base}/${rootCaCertConfigMapName}`, next);
  }
}
