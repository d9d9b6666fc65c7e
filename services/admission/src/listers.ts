// The cluster as the admission plugins read it (client-go listers over shared informers): the
// namespaces, synced before the service answers, and any other resource on first use (the
// params of policies, the webhook configurations), each a SharedInformer over the storage
// service and NATS keyed by `/registry/<group or core>/<resource>/`.
import type { NatsConnection } from 'nats';
import { SharedInformer } from '@orch/apimachinery/informer';
import type { InformerLogger, InformerStorage } from '@orch/apimachinery/informer';
import type { ApiObject } from '@orch/apimachinery/meta';
import { builtinResources, storagePrefix } from '@orch/apimachinery/registry';
import type { Listers, ObjectLister } from './interfaces.js';

/** The storage prefix of a resource: the registered one, else `/registry/<group|core>/<resource>/`. */
export function resourcePrefix(group: string, resource: string): string {
  const def = builtinResources.find((d) => d.group === group && d.resource === resource);
  if (def) return storagePrefix(def);
  return `/registry/${group === '' ? 'core' : group}/${resource}/`;
}

/** A lister over one informer's cache. */
export class InformerLister implements ObjectLister {
  readonly informer: SharedInformer;

  constructor(informer: SharedInformer) {
    this.informer = informer;
  }

  list(namespace?: string): ApiObject[] {
    // The informer holds decoded objects of the resource, each with its metadata.
    const all = this.informer.list() as ApiObject[];
    if (namespace === undefined) return all;
    return all.filter((o) => (o.metadata.namespace ?? '') === namespace);
  }

  get(namespace: string, name: string): ApiObject | undefined {
    return this.informer.get(namespace ? `${namespace}/${name}` : name) as ApiObject | undefined;
  }
}

export class InformerListers implements Listers {
  readonly namespaces: InformerLister;
  readonly #storage: InformerStorage;
  readonly #nats: NatsConnection;
  readonly #log: InformerLogger | undefined;
  readonly #byPrefix = new Map<string, Promise<InformerLister>>();
  readonly #started: SharedInformer[] = [];
  #stopped = false;

  constructor(storage: InformerStorage, nats: NatsConnection, log?: InformerLogger) {
    this.#storage = storage;
    this.#nats = nats;
    this.#log = log;
    const prefix = resourcePrefix('', 'namespaces');
    this.namespaces = new InformerLister(this.#informer(prefix));
    this.#byPrefix.set(prefix, Promise.resolve(this.namespaces));
  }

  #informer(prefix: string): SharedInformer {
    return new SharedInformer({
      storage: this.#storage,
      nats: this.#nats,
      prefix,
      ...(this.#log ? { log: this.#log } : {}),
    });
  }

  /** Starts the namespaces informer; resolves once it is synced. */
  async start(): Promise<void> {
    this.#started.push(this.namespaces.informer);
    await this.namespaces.informer.start();
  }

  forResource(group: string, resource: string): Promise<ObjectLister> {
    const prefix = resourcePrefix(group, resource);
    let lister = this.#byPrefix.get(prefix);
    if (!lister) {
      if (this.#stopped) return Promise.reject(new Error('the listers are stopped'));
      const informer = this.#informer(prefix);
      this.#started.push(informer);
      lister = informer.start().then(() => new InformerLister(informer));
      // A failed start is not cached: the next use tries again.
      lister.catch(() => this.#byPrefix.delete(prefix));
      this.#byPrefix.set(prefix, lister);
    }
    return lister;
  }

  /** Informers started so far, namespaces first. */
  get informers(): readonly SharedInformer[] {
    return this.#started;
  }

  stop(): void {
    this.#stopped = true;
    for (const i of this.#started) i.stop();
  }
}
