// The cache key of an object (client-go cache.MetaNamespaceKeyFunc).
type Obj = Record<string, unknown>;

/** `<namespace>/<name>`, or `<name>` when cluster-scoped. */
export function objectKey(obj: Obj): string {
  const m = (obj['metadata'] ?? {}) as { namespace?: string; name?: string };
  return m.namespace ? `${m.namespace}/${m.name ?? ''}` : (m.name ?? '');
}
