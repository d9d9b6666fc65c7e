import type {
  CustomResourceDefinition,
  CustomResourceDefinitionVersion,
} from '../apiextensions/index.js';
import type { GroupVersionKind, GroupVersionResource } from '../schema/index.js';

export type Verb =
  'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export const allVerbs: readonly Verb[] = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

/** One served resource: what discovery, routing, storage keys and OpenAPI are derived from. */
export interface ResourceDefinition extends GroupVersionResource {
  kind: string;
  listKind: string;
  singular: string;
  namespaced: boolean;
  verbs: readonly Verb[];
  shortNames?: readonly string[];
  categories?: readonly string[];
  /** Subresources beyond the object itself; `status` gets get/update/patch. */
  subresources?: readonly string[];
  /** Field paths usable in field selectors beyond metadata.name and metadata.namespace. */
  selectableFields?: readonly string[];
  /** Group and version objects are stored at (defaults to the served one). */
  storageGroup?: string;
  /**
   * The version objects are stored at, when not the served one (autoscaling/v1 HPAs are stored
   * as v2): the Store converts between the two through the registered conversions.
   */
  storageVersion?: string;
  /** The resource name in storage keys (defaults to `resource`); kinds served in two groups share it. */
  storageResource?: string;
  /** A virtual type (an operation such as a token or access review): served, never stored, so no Store; answered by its own REST object. */
  virtual?: boolean;
  /**
   * A served version upstream deprecated (its APILifecycleDeprecated, APILifecycleRemoved and
   * APILifecycleReplacement): requests get a `Warning: 299`, the audit annotations
   * `orch.io/deprecated` and `orch.io/removed-release`, and the gauge apiserver_requested_deprecated_apis.
   */
  /**
   * A custom resource: the CRD that defines it and the version served here. Schema work
   * (pruning, defaulting, validation, tables, OpenAPI, apply's merge type, conversion) reads the
   * version's schema from it instead of the proto schema model, which has no such kind.
   */
  customResource?: {
    readonly crd: CustomResourceDefinition;
    readonly version: CustomResourceDefinitionVersion;
  };
  deprecation?: {
    /** `1.X`: the release that deprecated it. */
    deprecatedIn: string;
    /** `1.Y`: the release that stops serving it, when planned. */
    removedIn?: string;
    /** What to use instead: `<group>/<version> <Kind>` (core: `v1 <Kind>`). */
    replacement?: string;
  };
}

export function gvkOf(def: ResourceDefinition): GroupVersionKind {
  return { group: def.group, version: def.version, kind: def.kind };
}
