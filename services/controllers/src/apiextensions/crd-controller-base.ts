// What the apiextensions controllers share (k8s.io/apiextensions-apiserver pkg/controller/status,
// establish and finalizer each run a workqueue over a CRD informer): an informer over
// customresourcedefinitions, a keyed queue worked one key at a time, and a retry with a
// delay when a sync fails or asks for another pass.
import type { CustomResourceDefinition } from '@orch/apimachinery/apiextensions';
import type { RestClient } from '@orch/apimachinery/client';
import { RestListerWatcher, SharedInformer } from '@orch/apimachinery/informer';
import type { Logger } from '@orch/component-base/logs';

export const crdsPath = '/apis/apiextensions.orch.io/v1/customresourcedefinitions';

/** What a sync asks for: done, or another pass after `retryMs`. */
export type SyncResult = 'done' | 'retry';

export abstract class CrdController {
  protected readonly client: RestClient;
  protected readonly log: Logger;
  protected readonly informer: SharedInformer;
  readonly #queue = new Set<string>();
  readonly #abort = new AbortController();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #retryMs: number;
  #working = false;

  constructor(client: RestClient, log: Logger, name: string, retryMs = 1000) {
    this.client = client;
    this.log = log.child({ controller: name });
    this.#retryMs = retryMs;
    this.informer = new SharedInformer({
      listerWatcher: new RestListerWatcher(client, crdsPath),
      name: 'customresourcedefinitions',
      log: this.log,
    });
  }

  /** One pass over the CRD named `name` (absent from the informer when deleted). */
  protected abstract sync(name: string): Promise<SyncResult>;

  async run(): Promise<void> {
    const stopped = new Promise<void>((resolve) =>
      this.#abort.signal.addEventListener('abort', () => resolve(), { once: true })
    );
    await this.informer.start();
    void this.#work();
    await stopped;
  }

  stop(): void {
    this.informer.stop();
    this.#abort.abort();
    for (const t of this.#timers) clearTimeout(t);
  }

  protected get stopped(): boolean {
    return this.#abort.signal.aborted;
  }

  /** The informer's copy of a CRD. */
  protected crd(name: string): CustomResourceDefinition | undefined {
    return this.informer.get(name) as CustomResourceDefinition | undefined;
  }

  protected crds(): CustomResourceDefinition[] {
    // The informer holds the decoded JSON of stored CRDs.
    return this.informer.list() as CustomResourceDefinition[];
  }

  enqueue(name: string): void {
    this.#queue.add(name);
    if (this.informer.synced) void this.#work();
  }

  #later(name: string, ms: number): void {
    const t = setTimeout(() => {
      this.#timers.delete(t);
      this.enqueue(name);
    }, ms);
    this.#timers.add(t);
  }

  async #work(): Promise<void> {
    if (this.#working) return;
    this.#working = true;
    try {
      while (this.#queue.size > 0 && !this.stopped) {
        const name = this.#queue.values().next().value as string;
        this.#queue.delete(name);
        try {
          if ((await this.sync(name)) === 'retry') this.#later(name, this.#retryMs);
        } catch (err) {
          if (this.stopped) return;
          this.log.warn('sync failed; retrying', { name, err });
          this.#later(name, this.#retryMs * 2);
        }
      }
    } finally {
      this.#working = false;
    }
  }
}

/** The path of a CRD's status subresource. */
export const statusPath = (name: string): string => `${crdsPath}/${name}/status`;
