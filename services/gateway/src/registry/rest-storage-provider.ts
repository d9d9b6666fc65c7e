// What one API group's registry folder hands the gateway (k8s pkg/controlplane/apiserver
// RESTStorageProvider, e.g. pkg/registry/apps/rest/storage_apps.go): for each resource of the
// group, the strategy its Store writes with, the Store itself when the generic one is not
// enough, and the REST object of each subresource. The gateway builds every Store and
// subresource from the list of providers (src/rest-storage-providers.ts); nothing else chooses
// per kind.
import type { StorageInterface } from '@orch/apimachinery/storage';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { Cachers } from '../cache/cachers.js';
import type { Storage } from './rest.js';
import type { Store } from './store.js';
import type { Strategy } from './strategy.js';

/** What a Store is built on. */
export interface StoreDeps {
  readonly storage: StorageInterface;
  readonly cachers: Cachers;
}

/** Every Store built, keyed `<group>/<version>/<resource>` (restKey). */
export type StoreLookup = ReadonlyMap<string, Store>;

/**
 * The REST object of a subresource of `store`; `stores` holds every group's Stores (an eviction
 * reads PodDisruptionBudgets). Undefined: the subresource is not served.
 */
export type SubresourceFunc = (store: Store, stores: StoreLookup) => Storage | undefined;

/** How one resource of a group is served; applies to every served version of it. */
export interface ResourceStorage {
  /**
   * The strategy of the kind's Store, in every served version. Without: the generic rules
   * (defaultStrategy), with a status subresource when the kind has one.
   */
  readonly strategy?: Strategy;
  /** Builds the kind's Store when the generic Store is not enough (without: the generic Store). */
  readonly newStore?: (def: ResourceDefinition, strategy: Strategy, deps: StoreDeps) => Store;
  /**
   * The REST object of each subresource the kind declares, by name (status, scale, binding...).
   * A declared subresource missing here is served by a REST object built elsewhere
   * (serviceaccounts/token by authentication) or not at all.
   */
  readonly subresources?: Readonly<Record<string, SubresourceFunc>>;
  /** A virtual kind (an operation, never stored): its REST object, from the Stores it acts on. */
  readonly newRest?: (stores: StoreLookup) => Storage | undefined;
}

/** k8s RESTStorageProvider: one API group's resources, by resource name. */
export interface RestStorageProvider {
  /** The API group (core: ''). */
  readonly groupName: string;
  readonly resources: Readonly<Record<string, ResourceStorage>>;
}
