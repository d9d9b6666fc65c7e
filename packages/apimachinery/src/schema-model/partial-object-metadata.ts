// PartialObjectMetadata: an object reduced to its metadata (k8s meta.AsPartialObjectMetadata), for
// Table rows and for clients that ask for metadata only (Accept ...;as=PartialObjectMetadata).

type Json = Record<string, unknown>;

// A type alias, so that it is the JSON object (Record<string, unknown>) handlers send.
export type PartialObjectMetadata = {
  kind: 'PartialObjectMetadata';
  apiVersion: string;
  metadata: Json;
};

export interface PartialObjectMetadataList {
  kind: 'PartialObjectMetadataList';
  apiVersion: string;
  metadata: Json;
  items: PartialObjectMetadata[];
}

const metadataOf = (obj: Json): Json => {
  const m = obj['metadata'];
  return typeof m === 'object' && m !== null && !Array.isArray(m) ? (m as Json) : {};
};

/** The object's metadata as a PartialObjectMetadata of `apiVersion` (meta.orch.io/v1 or meta.k8s.io/v1). */
export function asPartialObjectMetadata(obj: Json, apiVersion: string): PartialObjectMetadata {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: metadataOf(obj) };
}

/** A list's items as PartialObjectMetadata, with the list's metadata (resourceVersion, continue...). */
export function asPartialObjectMetadataList(
  list: Json,
  apiVersion: string
): PartialObjectMetadataList {
  const items = Array.isArray(list['items']) ? (list['items'] as Json[]) : [];
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion,
    metadata: metadataOf(list),
    items: items.map((item) => asPartialObjectMetadata(item, apiVersion)),
  };
}
