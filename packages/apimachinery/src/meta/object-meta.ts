// The metadata every object carries (k8s apimachinery/pkg/apis/meta/v1 TypeMeta, ObjectMeta,
// ListMeta, OwnerReference) and the object type the registry works on.

/** apiVersion and kind (k8s metav1.TypeMeta). */
export interface TypeMeta {
  apiVersion?: string;
  kind?: string;
}

/** A reference from a dependent to its owner (k8s metav1.OwnerReference). */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/**
 * The metadata of a stored object (k8s metav1.ObjectMeta). Objects arrive as decoded JSON, so
 * every field is optional and fields this type does not name are kept.
 */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  /** RFC 3339, seconds precision (see `now`). */
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: unknown[];
  [k: string]: unknown;
}

/** The metadata of a list (k8s metav1.ListMeta). */
export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/**
 * An object of the API as the registry handles it: decoded JSON with its metadata (k8s
 * metav1.Object over unstructured.Unstructured). The gateway calls it `Obj`.
 */
export type ApiObject = Record<string, unknown> & { metadata: ObjectMeta };
