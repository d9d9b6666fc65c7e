// The availability controller of the APIServices that name a service, in every gateway as
// upstream's runs in every kube-apiserver (kube-aggregator's remote AvailableConditionController):
// an APIService is checked (availability.ts) when it, its Service or that Service's
// EndpointSlices change, every 30 s (upstream's resync), and again after a failed check with a
// backoff; its Available condition is written through the status subresource only when it
// changes, so gateways that agree write once between them. Local APIServices are the
// autoregister's.
import type { Logger } from '@orch/component-base/logs';
import type { WatchCache } from '../cache/watch-cache.js';
import type { Store } from '../registry/store.js';
import { apiServiceStatusStrategy } from '../registry/apiregistration/apiservices/strategy.js';
import type { AvailabilityConfig } from './availability.js';
import { checkAvailability, withAvailability } from './availability.js';

export interface AvailableControllerSources {
  apiServices: WatchCache;
  services: WatchCache;
  endpointSlices: WatchCache;
}

/** Upstream's resync of the APIService informer. */
export const resyncMs = 30_000;
const maxBackoffMs = 30_000;

export class AvailableConditionController {
  readonly #queue = new Set<string>();
  readonly #backoff = new Map<string, number>();
  #wake: (() => void) | undefined;

  constructor(
    private readonly sources: AvailableControllerSources,
    private readonly store: Store,
    private readonly config: AvailabilityConfig,
    private readonly log: Logger
  ) {}

  async run(signal: AbortSignal): Promise<void> {
    const { apiServices, services, endpointSlices } = this.sources;
    await Promise.all([apiServices, services, endpointSlices].map((c) => c.waitForSync()));
    if (signal.aborted) return;
    const all = (): void => this.#enqueueAll();
    const one = (o: unknown): void => this.#enqueue(nameOf(o));
    apiServices.addEventHandler({
      onAdd: one,
      onUpdate: (_old, o) => one(o),
      onDelete: () => undefined,
      onReplace: all,
    });
    // A Service or EndpointSlice change concerns the APIServices that name its Service only, as
    // upstream's handlers queue them (an EndpointSlice names its Service in a label).
    const service = (o: Obj): void => this.#enqueueNaming(namespaceOf(o), nameOf(o));
    const slice = (o: Obj): void =>
      this.#enqueueNaming(namespaceOf(o), labelOf(o, 'kubernetes.io/service-name'));
    for (const [c, h] of [
      [services, service],
      [endpointSlices, slice],
    ] as const)
      c.addEventHandler({ onAdd: h, onUpdate: (_old, o) => h(o), onDelete: h, onReplace: all });
    const resync = setInterval(all, resyncMs);
    resync.unref();
    signal.addEventListener('abort', () => {
      clearInterval(resync);
      this.#wake?.();
    });
    all();
    while (!signal.aborted) {
      const name = this.#queue.values().next().value;
      if (name === undefined) {
        await new Promise<void>((r) => (this.#wake = r));
        this.#wake = undefined;
        continue;
      }
      this.#queue.delete(name);
      await this.#sync(name).catch((err: unknown) => this.#retry(name, err, signal));
    }
  }

  #enqueueAll(): void {
    for (const o of this.sources.apiServices.list()) this.#enqueue(nameOf(o));
  }

  /** The APIServices whose `spec.service` is `namespace/name`. */
  #enqueueNaming(namespace: string, name: string): void {
    if (!name) return;
    for (const o of this.sources.apiServices.list()) {
      const ref = ((o['spec'] ?? {}) as { service?: { namespace?: string; name?: string } })
        .service;
      if (ref?.namespace === namespace && ref.name === name) this.#enqueue(nameOf(o));
    }
  }

  #enqueue(name: string): void {
    if (!name) return;
    this.#queue.add(name);
    this.#wake?.();
  }

  /** A failed check or write is tried again after a backoff (1 s, doubling up to 30 s). */
  #retry(name: string, err: unknown, signal: AbortSignal): void {
    const delay = Math.min((this.#backoff.get(name) ?? 500) * 2, maxBackoffMs);
    this.#backoff.set(name, delay);
    this.log.warn('APIService not available, checking again later', {
      name,
      delay,
      err: String(err),
    });
    const timer = setTimeout(() => {
      if (!signal.aborted) this.#enqueue(name);
    }, delay);
    timer.unref();
  }

  async #sync(name: string): Promise<void> {
    const api = this.sources.apiServices.get(name);
    if (!api) return;
    const next = await checkAvailability(api, this.config);
    if (!next) return;
    // Written only when it changes (upstream's updateAPIServiceStatus), as the cache shows it,
    // and only over the copy it was decided from: upstream's UpdateStatus sends the lister's copy
    // with its resourceVersion, refused with a conflict (and retried) when another gateway wrote
    // since. Written over the newer object instead, the decision of a gateway whose Service or
    // EndpointSlice cache lagged (one just started) turned an APIService the others had found
    // Available unavailable until they checked again. The write that caused the conflict queues
    // the APIService again here anyway.
    if (withAvailability(api['status'], next, new Date())) {
      const { resourceVersion } = metaOf(api);
      let changed = false;
      await this.store.withStrategy(apiServiceStatusStrategy).update(
        {},
        name,
        (current) => {
          if (!current) throw new Error(`APIService ${name} is gone`);
          const updated = withAvailability(current['status'], next, new Date());
          changed = !!updated; // as of the attempt that is written
          if (!updated) return current;
          return {
            ...current,
            metadata: { ...current.metadata, resourceVersion },
            status: updated,
          };
        },
        { dryRun: false }
      );
      // Said only when written: storage may already hold the condition another gateway wrote.
      if (changed) this.log.info('changing APIService availability', { name, ...next });
    }
    // Upstream requeues only a failed discovery check (the others wait for a change).
    if (next.reason === 'FailedDiscoveryCheck') throw new Error(next.message);
    this.#backoff.delete(name);
  }
}

type Obj = Record<string, unknown>;
type Meta = { namespace?: unknown; labels?: Record<string, unknown>; resourceVersion?: string };
const metaOf = (o: Obj): Meta => (o['metadata'] ?? {}) as Meta;
const namespaceOf = (o: Obj): string => {
  const ns = metaOf(o).namespace;
  return typeof ns === 'string' ? ns : '';
};
const labelOf = (o: Obj, key: string): string => {
  const v = metaOf(o).labels?.[key];
  return typeof v === 'string' ? v : '';
};

const nameOf = (o: unknown): string => {
  const name = (o as { metadata?: { name?: unknown } } | undefined)?.metadata?.name;
  return typeof name === 'string' ? name : '';
};
