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
import { FinalizeRest } from './core/namespaces/finalize-rest.js';
import { restKey } from './rest.js';
import type { Storage } from './rest.js';
import { StatusRest } from './status-rest.js';
import { Store } from './store.js';
import { strategyFor } from './strategies.js';

/** The REST object of a stored kind's subresource, by subresource name. */
const subresources: Record<string, (store: Store) => Storage | undefined> = {
  status: (store) => csrStatusRest(store) ?? new StatusRest(store),
  approval: (store) => csrApprovalRest(store),
  finalize: (store) => {
    const isNamespaces = store.def.group === '' && store.def.resource === 'namespaces';
    return isNamespaces ? new FinalizeRest(store) : undefined;
  },
};

/** One Store per stored (not virtual) kind, keyed `<group>/<version>/<resource>`. */
export function buildStores(
  registry: ResourceRegistry,
  storage: StorageClient,
  cachers: Cachers
): Map<string, Store> {
  const stores = new Map<string, Store>();
  for (const def of registry.all()) {
    if (def.virtual) continue; // an operation, served by its own REST object, never stored
    stores.set(restKey(def), new Store(def, strategyFor(def), storage, cachers));
  }
  return stores;
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
      const r = subresources[sub]?.(store);
      if (r) rest.set(restKey(store.def, sub), r);
    }
  }
  for (const [key, r] of accessReviewStorage(deps.authorizer, deps.reviewer)) rest.set(key, r);
  for (const [key, r] of deps.more ?? []) rest.set(key, r);
  return rest;
}
