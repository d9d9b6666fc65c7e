// The REST map the installer serves: one Store per stored kind, one REST object per subresource
// and per operation kind (access reviews; authentication brings TokenReview and TokenRequest),
// keyed `<group>/<version>/<resource>[/<subresource>]` (k8s the RESTStorageProviders'
// NewRESTStorage). Adding a subresource is its REST file plus one line in `subresources`.
import type { StorageClient } from '@orch/apimachinery/grpc';
import type { ResourceRegistry } from '@orch/apimachinery/registry';
import { accessReviewStorage } from '../authz/access-reviews.js';
import type { Authorizer } from '../authz/authorizer.js';
import type { RuleReviewer } from '../authz/grpc-authorizer.js';
import type { Cachers } from '../cache/cachers.js';
import {
  csrApprovalRest,
  csrStatusRest,
} from './certificates/certificatesigningrequests/subresources.js';
import { crdStatusRest } from './apiextensions/customresourcedefinitions/strategy.js';
import { EventsV1Store } from './core/events/events-v1-store.js';
import { FinalizeRest } from './core/namespaces/finalize-rest.js';
import { BindingRest } from './core/pods/binding-rest.js';
import { evictionRestFor } from './core/pods/eviction-rest.js';
import { ServiceAllocator } from './core/services/service-allocator.js';
import type { ServiceRanges } from './core/services/service-allocator.js';
import { ServiceStore } from './core/services/service-store.js';
import { restKey } from './rest.js';
import { PriorityClassStore } from './scheduling/priorityclasses/priority-class-store.js';
import { ScaleRest } from './scale-rest.js';
import type { Storage } from './rest.js';
import { StatusRest } from './status-rest.js';
import { Store } from './store.js';
import { strategyFor } from './strategies.js';

/** The REST object of a stored kind's subresource, by subresource name. */
const subresources: Record<
  string,
  (store: Store, stores: Map<string, Store>) => Storage | undefined
> = {
  status: (store) => csrStatusRest(store) ?? crdStatusRest(store) ?? new StatusRest(store),
  approval: (store) => csrApprovalRest(store),
  scale: (store) => new ScaleRest(store),
  eviction: (store, stores) => evictionRestFor(store, stores),
  finalize: (store) => {
    const isNamespaces = store.def.group === '' && store.def.resource === 'namespaces';
    return isNamespaces ? new FinalizeRest(store) : undefined;
  },
  binding: (store) => {
    const isPods = store.def.group === '' && store.def.resource === 'pods';
    return isPods ? new BindingRest(store) : undefined;
  },
};

/** One Store per stored (not virtual) kind, keyed `<group>/<version>/<resource>`. */
export function buildStores(
  registry: ResourceRegistry,
  storage: StorageClient,
  cachers: Cachers,
  opts: StoreOptions = {}
): Map<string, Store> {
  const stores = new Map<string, Store>();
  const services = opts.serviceRanges
    ? new ServiceAllocator(storage, opts.serviceRanges, opts.onReleaseError)
    : undefined;
  for (const def of registry.all()) {
    if (def.virtual) continue; // an operation, served by its own REST object, never stored
    const strategy = strategyFor(def);
    const isServices = def.group === '' && def.resource === 'services';
    const isEventsV1 = def.group === 'events.orch.io' && def.resource === 'events';
    const isPriorityClasses =
      def.group === 'scheduling.orch.io' && def.resource === 'priorityclasses';
    stores.set(
      restKey(def),
      isServices && services
        ? new ServiceStore(def, strategy, storage, cachers, services)
        : isEventsV1
          ? new EventsV1Store(def, strategy, storage, cachers)
          : isPriorityClasses
            ? new PriorityClassStore(def, strategy, storage, cachers)
            : new Store(def, strategy, storage, cachers)
    );
  }
  return stores;
}

/** What some kinds' Stores need beyond storage. */
export interface StoreOptions {
  /** Where Services' cluster IPs and node ports come from (without: none are handed out). */
  serviceRanges?: ServiceRanges;
  /** A release of IPs or ports that failed (the value stays taken). */
  onReleaseError?: (err: unknown) => void;
}

export interface RestStorageDeps {
  stores: Map<string, Store>;
  authorizer: Authorizer;
  reviewer: RuleReviewer;
  /** REST objects built elsewhere, keyed by restKey (TokenReview, TokenRequest). */
  more?: Map<string, Storage>;
}

/** Every REST object the installer serves. */
export function buildRestStorage(deps: RestStorageDeps): Map<string, Storage> {
  const rest = new Map<string, Storage>();
  for (const [key, store] of deps.stores) {
    rest.set(key, store);
    for (const sub of store.def.subresources ?? []) {
      const r = subresources[sub]?.(store, deps.stores);
      if (r) rest.set(restKey(store.def, sub), r);
    }
  }
  // The `bindings` collection binds the pod its Binding names (upstream's LegacyBinding).
  const pods = deps.stores.get('/v1/pods');
  if (pods) rest.set('/v1/bindings', new BindingRest(pods));
  for (const [key, r] of accessReviewStorage(deps.authorizer, deps.reviewer)) rest.set(key, r);
  for (const [key, r] of deps.more ?? []) rest.set(key, r);
  return rest;
}
