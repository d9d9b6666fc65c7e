// Group, version, kind and resource names (k8s.io/apimachinery/pkg/runtime/schema).

export interface GroupVersion {
  group: string;
  version: string;
}

export interface GroupVersionKind extends GroupVersion {
  kind: string;
}

export interface GroupVersionResource extends GroupVersion {
  resource: string;
}

/** `v1` for the core group, `<group>/<version>` otherwise. */
export function formatApiVersion(gv: GroupVersion): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

/** The inverse of formatApiVersion; undefined for an empty or malformed string. */
export function parseApiVersion(apiVersion: string): GroupVersion | undefined {
  if (apiVersion === '') return undefined;
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0] ?? '' };
  if (parts.length === 2 && parts[0] && parts[1]) return { group: parts[0], version: parts[1] };
  return undefined;
}
