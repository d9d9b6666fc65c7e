// Per-kind behaviour for the generic Store, k8s' rest.RESTCreateStrategy / RESTUpdateStrategy /
// RESTDeleteStrategy camelCased. Strategies are pure: they change the object they are given
// and return field errors; the Store owns the sequence, storage and retries.
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { sameJson } from '@orch/apimachinery/meta';
import type { RestContext } from './rest.js';

export interface Strategy {
  /** Whether a status subresource exists: then writes to the object keep status and vice versa. */
  readonly hasStatus: boolean;
  /** Whether PUT of a missing object creates it. */
  readonly allowCreateOnUpdate: boolean;
  /**
   * Writes through this strategy never raise metadata.generation (subresources that change
   * status or finalizers only); otherwise generation follows changes outside metadata and status.
   */
  readonly keepsGeneration?: boolean;
  /** How object names are validated. */
  readonly nameRule: 'subdomain' | 'label' | 'path-segment';
  /**
   * Clears what a client may not set on create (status, for kinds with a status subresource);
   * `ctx` carries the requester (CertificateSigningRequests record who asked).
   */
  prepareForCreate(obj: ApiObject, ctx?: RestContext): void;
  /** Carries over what a write to the main resource may not change (status). */
  prepareForUpdate(obj: ApiObject, old: ApiObject): void;
  validate(obj: ApiObject): FieldError[];
  validateUpdate(obj: ApiObject, old: ApiObject): FieldError[];
  /** The first delete of an object that must be finalized: marks it (e.g. namespace Terminating). */
  prepareForGracefulDelete?(obj: ApiObject): void;
  /**
   * What happens to dependents when a delete names no policy (k8s
   * GarbageCollectionDeleteStrategy.DefaultGarbageCollectionPolicy): DeleteDependents
   * (Background) when absent; OrphanDependents adds the orphan finalizer; Unsupported adds neither
   * GC finalizer whatever the options.
   */
  readonly defaultGarbageCollectionPolicy?: 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';
  /**
   * A delete that removes the object answers the object (k8s Store.ReturnDeletedObject: pods,
   * services, service accounts, storage classes); otherwise a Success Status naming it.
   */
  readonly returnDeletedObject?: boolean;
  /** Finalizers that block removal besides metadata.finalizers (e.g. namespace spec.finalizers). */
  pendingFinalizers?(obj: ApiObject): string[];
}

const specOf = (o: ApiObject): unknown => {
  const { metadata: _m, status: _s, ...rest } = o;
  return rest;
};

/** The rules every kind starts from. */
export const defaultStrategy = (opts: { hasStatus: boolean }): Strategy => ({
  hasStatus: opts.hasStatus,
  allowCreateOnUpdate: true,
  nameRule: 'subdomain',
  prepareForCreate(obj) {
    if (this.hasStatus) delete obj['status'];
  },
  prepareForUpdate(obj, old) {
    if (this.hasStatus) {
      if (old['status'] === undefined) delete obj['status'];
      else obj['status'] = old['status'];
    }
  },
  validate: () => [],
  validateUpdate: () => [],
});

/** generation is raised when anything but metadata and status changes. */
export function specChanged(obj: ApiObject, old: ApiObject): boolean {
  return !sameJson(specOf(obj), specOf(old));
}
