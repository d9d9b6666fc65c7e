// The namespaces the gateway's admission reads (NamespaceLifecycle): the namespaces watch cache
// read as an Informer (started with the gateway, not on first use).
import type { Informer } from '@orch/apimachinery/informer';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Logger } from '@orch/component-base/logs';
import type { Cachers } from '../../../cache/cachers.js';
import type { Store } from '../../store.js';

/** The namespaces as admission reads them: by name, from a cache that may not have seen one yet. */
export interface NamespaceCache {
  get(name: string): ApiObject | undefined;
}

export class NamespaceInformer implements NamespaceCache {
  readonly #informer: Informer;
  readonly #start: () => void;

  constructor(store: Store, cachers: Cachers, _log?: Logger) {
    const cacher = cachers.for(store.def);
    this.#informer = cacher.cache;
    this.#start = () => void cacher.start({ required: true });
  }

  get synced(): boolean {
    return this.#informer.synced;
  }

  get(name: string): ApiObject | undefined {
    return this.#informer.get(name) as ApiObject | undefined;
  }

  /** Starts the cache; resolves once it is synced. */
  async start(): Promise<void> {
    this.#start();
    await this.#informer.waitForSync();
  }

  /** The cache stops with the gateway's caches. */
  stop(): void {}
}
