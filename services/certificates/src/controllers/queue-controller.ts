// One controller's loop (client-go's informer + rate-limited work queue, as upstream's
// certificates.CertificateController): an informer over the public API queues each changed
// object's key; one worker syncs keys one at a time; a failed sync is retried with a per-key
// exponential backoff (5 ms doubling to 30 s, client-go's default item limiter's shape); a
// resync period queues every cached key again.
import type { RestClient } from '@orch/apimachinery/client';
import { RestListerWatcher, SharedInformer, objectKey } from '@orch/apimachinery/informer';
import type { Logger } from '@orch/component-base/logs';

type Obj = Record<string, unknown>;

export interface QueueControllerOptions {
  name: string;
  client: RestClient;
  /** The collection the informer lists and watches. */
  path: string;
  log: Logger;
  /** Reconciles one key with the informer's object for it (undefined when deleted). */
  sync(key: string, obj: Obj | undefined): Promise<unknown>;
  /** Queue every cached key again this often (0: never). */
  resyncMs?: number;
  /** Only objects this accepts are queued. */
  filter?(obj: Obj): boolean;
}

export class QueueController {
  readonly informer: SharedInformer;
  readonly #opts: QueueControllerOptions;
  readonly #log: Logger;
  readonly #queue = new Set<string>();
  readonly #failures = new Map<string, number>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #wake: (() => void) | undefined;
  #stopped = false;

  constructor(opts: QueueControllerOptions) {
    this.#opts = opts;
    this.#log = opts.log.child({ controller: opts.name });
    this.informer = new SharedInformer({
      listerWatcher: new RestListerWatcher(opts.client, opts.path),
      name: opts.name,
      log: this.#log,
    });
    const add = (o: Obj): void => {
      if (!opts.filter || opts.filter(o)) this.enqueue(objectKey(o));
    };
    this.informer.addEventHandler({
      onAdd: add,
      onUpdate: (_old, o) => add(o),
      onDelete: (o) => this.enqueue(objectKey(o)),
    });
  }

  enqueue(key: string): void {
    if (this.#stopped) return;
    this.#queue.add(key);
    this.#wake?.();
  }

  /** Runs the informer and the worker until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    const onAbort = (): void => {
      this.#stopped = true;
      this.#wake?.();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    await this.informer.start();
    await this.informer.waitForSync();
    const resync = this.#opts.resyncMs
      ? setInterval(() => {
          for (const o of this.informer.list()) this.enqueue(objectKey(o));
        }, this.#opts.resyncMs)
      : undefined;
    try {
      while (!this.#stopped) {
        const key = this.#queue.values().next().value as string | undefined;
        if (key === undefined) {
          await new Promise<void>((resolve) => (this.#wake = resolve));
          this.#wake = undefined;
          continue;
        }
        this.#queue.delete(key);
        await this.#process(key);
      }
    } finally {
      if (resync) clearInterval(resync);
      for (const t of this.#timers) clearTimeout(t);
      this.informer.stop();
      signal.removeEventListener('abort', onAbort);
    }
  }

  async #process(key: string): Promise<void> {
    try {
      await this.#opts.sync(key, this.informer.get(key));
      this.#failures.delete(key);
    } catch (err) {
      if (this.#stopped) return;
      const n = (this.#failures.get(key) ?? 0) + 1;
      this.#failures.set(key, n);
      const delay = Math.min(5 * 2 ** (n - 1), 30_000);
      this.#log.warn('sync failed; retrying', {
        key,
        attempt: n,
        delayMs: delay,
        err: String(err),
      });
      const t = setTimeout(() => {
        this.#timers.delete(t);
        this.enqueue(key);
      }, delay);
      this.#timers.add(t);
    }
  }
}
