// The REST map the installer serves, built from the groups' providers
// (src/rest-storage-providers.ts): one Store per stored kind, one REST object per subresource
// and per operation kind (access reviews; authentication brings TokenReview and TokenRequest),
// keyed `<group>/<version>/<resource>[/<subresource>]` (k8s the RESTStorageProviders'
// NewRESTStorage).
import type { ResourceDefinition, ResourceRegistry } from '@orch/apimachinery/registry';
import { accessReviewStorage } from './authorization/access-reviews.js';
import type { Authorizer } from '../authz/authorizer.js';
import type { RuleReviewer } from '../authz/grpc-authorizer.js';
import type { ResourceStorage, RestStorageProvider, StoreDeps } from './rest-storage-provider.js';
import { restKey } from './rest.js';
import type { Storage } from './rest.js';
import { Store } from './store.js';
import { defaultStrategy } from './strategy.js';
import type { Strategy } from './strategy.js';

/** How `def` is served, from its group's provider (none: an operation served elsewhere). */
function providedStorage(
  providers: readonly RestStorageProvider[],
  def: ResourceDefinition
): ResourceStorage | undefined {
  return providers.find((p) => p.groupName === def.group)?.resources[def.resource];
}

/** How a stored kind is served; a kind its group's provider does not list is a wiring error. */
export function storedResource(
  providers: readonly RestStorageProvider[],
  def: ResourceDefinition
): ResourceStorage {
  const storage = providedStorage(providers, def);
  if (!storage) {
    const gr = `${def.group || 'core'}/${def.resource}`;
    throw new Error(`no REST storage for ${gr}: its group's rest-storage-provider.ts lists none`);
  }
  return storage;
}

/** The strategy of a stored kind: its provider's, or the generic rules. */
export function strategyOf(storage: ResourceStorage, def: ResourceDefinition): Strategy {
  return (
    storage.strategy ??
    defaultStrategy({ hasStatus: def.subresources?.includes('status') ?? false })
  );
}

/** One Store per stored (not virtual) kind, keyed `<group>/<version>/<resource>`. */
export function buildStores(
  registry: ResourceRegistry,
  providers: readonly RestStorageProvider[],
  deps: StoreDeps
): Map<string, Store> {
  const stores = new Map<string, Store>();
  for (const def of registry.all()) {
    if (def.virtual) continue; // an operation, served by its own REST object, never stored
    const storage = storedResource(providers, def);
    const strategy = strategyOf(storage, def);
    const store = storage.newStore
      ? storage.newStore(def, strategy, deps)
      : new Store(def, strategy, deps.storage, deps.cachers);
    stores.set(restKey(def), store);
  }
  return stores;
}

export interface RestStorageDeps {
  registry: ResourceRegistry;
  providers: readonly RestStorageProvider[];
  stores: Map<string, Store>;
  authorizer: Authorizer;
  reviewer: RuleReviewer;
  /** REST objects built elsewhere, keyed by restKey (TokenReview, TokenRequest). */
  more?: Map<string, Storage>;
}

/** Every REST object the installer serves. */
export function buildRestStorage(deps: RestStorageDeps): Map<string, Storage> {
  const { providers, stores } = deps;
  const rest = new Map<string, Storage>();
  for (const [key, store] of stores) {
    rest.set(key, store);
    const builders = storedResource(providers, store.def).subresources ?? {};
    for (const sub of store.def.subresources ?? []) {
      const r = builders[sub]?.(store, stores);
      if (r) rest.set(restKey(store.def, sub), r);
    }
  }
  for (const def of deps.registry.all()) {
    if (!def.virtual) continue;
    const r = providedStorage(providers, def)?.newRest?.(stores);
    if (r) rest.set(restKey(def), r);
  }
  for (const [key, r] of accessReviewStorage(deps.authorizer, deps.reviewer)) rest.set(key, r);
  for (const [key, r] of deps.more ?? []) rest.set(key, r);
  return rest;
}
