// The metadata every object carries (k8s apimachinery/pkg/apis/meta/v1 TypeMeta, ObjectMeta,
// ListMeta, OwnerReference) and the object type the registry works on.
import type * as metaV1 from '@orch/api/meta/v1';

/** apiVersion and kind (k8s metav1.TypeMeta). */
export interface TypeMeta {
  apiVersion?: string;
  kind?: string;
}

/** A reference from a dependent to its owner (k8s metav1.OwnerReference). */
export type OwnerReference = metaV1.OwnerReference;

/**
 * The metadata of a stored object (k8s metav1.ObjectMeta), as generated from the proto. Objects
 * arrive as decoded JSON, so every field is optional and fields this type does not name are kept.
 */
export type ObjectMeta = metaV1.ObjectMeta & { [k: string]: unknown };

/** The metadata of a list (k8s metav1.ListMeta). */
export type ListMeta = metaV1.ListMeta;

/**
 * An object of the API as the registry handles it: decoded JSON with its metadata (k8s
 * metav1.Object over unstructured.Unstructured). The gateway calls it `Obj`.
 */
export type ApiObject = Record<string, unknown> & { metadata: ObjectMeta };
