// A cache of namespaces: a list, then every change from the fan-out (an informer over the
// gateway's own feed). Synced once the list has been read and the watch is running.
import type { Logger } from '@orch/component-base/logs';
import type { Status } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Fanout } from '../watch/fanout.js';
import type { Change, FeedListener } from '../watch/type-feed.js';
import type { NamespaceCache } from '../admission/namespace-lifecycle/plugin.js';
import type { Store } from './store.js';

export class NamespaceInformer implements NamespaceCache, FeedListener {
  readonly #items = new Map<string, ApiObject>();
  readonly #store: Store;
  readonly #fanout: Fanout;
  readonly #log: Logger;
  #synced = false;
  #stopped = false;
  #unsubscribe: (() => void) | undefined;

  constructor(store: Store, fanout: Fanout, log: Logger) {
    this.#store = store;
    this.#fanout = fanout;
    this.#log = log;
  }

  get synced(): boolean {
    return this.#synced;
  }

  get(name: string): ApiObject | undefined {
    return this.#items.get(name);
  }

  async start(): Promise<void> {
    while (!this.#stopped) {
      try {
        const list = await this.#store.list({}, { consistency: 'MOST_RECENT' });
        this.#items.clear();
        for (const o of list.items) this.#items.set(o.metadata.name ?? '', o);
        this.#unsubscribe = await this.#fanout
          .feedFor(this.#store.def)
          .subscribe(this, list.revision);
        this.#synced = true;
        return;
      } catch (err) {
        this.#log.warn('namespace informer could not sync; retrying', { err });
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  change(c: Change): void {
    const name = (c.object['metadata'] as { name?: string } | undefined)?.name ?? '';
    if (c.type === 'DELETED') this.#items.delete(name);
    else this.#items.set(name, c.object as ApiObject);
  }

  progress(): void {}

  fail(status: Status): void {
    this.#log.warn('namespace informer watch ended; relisting', { reason: status.reason });
    this.#synced = false;
    void this.start();
  }

  stop(): void {
    this.#stopped = true;
    this.#unsubscribe?.();
  }
}
