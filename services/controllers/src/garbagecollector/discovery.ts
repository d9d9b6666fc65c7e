// The resources the garbage collector watches and the kinds owner references name, from
// discovery through the public API (k8s GetDeletableResources over ServerPreferredResources,
// and the RESTMapper the collector resolves an ownerReference's apiVersion and kind with).
import type { RestClient } from '@orch/apimachinery/client';

export interface ApiResource {
  /** `/api/v1` or `/apis/<group>/<version>`. */
  base: string;
  apiVersion: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

export interface Discovered {
  /** Listable, watchable, deletable resources of each group's preferred version. */
  deletable: ApiResource[];
  /** Every served `apiVersion/kind` (all versions), for owner references. */
  byKind: Map<string, ApiResource>;
}

interface ResourceList {
  resources?: { name: string; kind: string; namespaced: boolean; verbs: string[] }[];
}

export const kindKey = (apiVersion: string, kind: string): string => `${apiVersion}/${kind}`;

export async function discover(client: RestClient): Promise<Discovered> {
  const versions: { base: string; apiVersion: string; preferred: boolean }[] = [
    { base: '/api/v1', apiVersion: 'v1', preferred: true },
  ];
  const groups = (await client.request('GET', '/apis')) as {
    groups?: {
      versions: { groupVersion: string }[];
      preferredVersion: { groupVersion: string };
    }[];
  };
  for (const g of groups.groups ?? []) {
    for (const v of g.versions) {
      versions.push({
        base: `/apis/${v.groupVersion}`,
        apiVersion: v.groupVersion,
        preferred: v.groupVersion === g.preferredVersion.groupVersion,
      });
    }
  }
  const deletable: ApiResource[] = [];
  const byKind = new Map<string, ApiResource>();
  for (const v of versions) {
    const list = (await client.request('GET', v.base)) as ResourceList;
    for (const r of list.resources ?? []) {
      if (r.name.includes('/')) continue;
      const res: ApiResource = {
        base: v.base,
        apiVersion: v.apiVersion,
        resource: r.name,
        kind: r.kind,
        namespaced: r.namespaced,
        verbs: r.verbs,
      };
      byKind.set(kindKey(v.apiVersion, r.kind), res);
      if (v.preferred && ['list', 'watch', 'delete'].every((verb) => r.verbs.includes(verb)))
        deletable.push(res);
    }
  }
  return { deletable, byKind };
}

/** The path of one object of a resource. */
export function objectPath(r: ApiResource, namespace: string | undefined, name: string): string {
  const ns = r.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${r.base}${ns}/${r.resource}/${encodeURIComponent(name)}`;
}
