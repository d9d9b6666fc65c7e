// The disruption controller's finders of a pod's controller and its scale (k8s
// pkg/controller/disruption finders()): a ReplicationController, a Deployment through the
// ReplicaSet it controls, a ReplicaSet no Deployment controls, a StatefulSet, all read from
// informers; then any other kind through its scale subresource (getScaleController), found by
// discovery of the owner reference's group version.
import { isNotFound } from '@orch/apimachinery/errors';
import type { RestClient } from '@orch/apimachinery/client';
import type { ControllerAndScale, ControllerFinder, OwnerReference } from './disruption-status.js';
import { controllerOf, metaOf } from './disruption-status.js';

type Json = Record<string, unknown>;

/** Reads an object of a kind by `<namespace>/<name>` (an informer's get). */
export type Lookup = (key: string) => Json | undefined;

export interface WorkloadLookups {
  replicationControllers: Lookup;
  replicaSets: Lookup;
  deployments: Lookup;
  statefulSets: Lookup;
}

const groupOf = (apiVersion: string): string =>
  apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';

/** verifyGroupKind. */
const isGroupKind = (ref: OwnerReference, kind: string, groups: readonly string[]): boolean =>
  ref.kind === kind && groups.includes(groupOf(ref.apiVersion));

const replicasOf = (o: Json): number =>
  (o['spec'] as { replicas?: number } | undefined)?.replicas ?? 1;

/** The object a reference names, when it is still the same one (same uid). */
function referenced(lookup: Lookup, ref: OwnerReference, namespace: string): Json | undefined {
  const o = lookup(`${namespace}/${ref.name}`);
  return o && (metaOf(o) as { uid?: string }).uid === ref.uid ? o : undefined;
}

const found = (o: Json): ControllerAndScale => ({
  uid: (metaOf(o) as { uid?: string }).uid ?? '',
  scale: replicasOf(o),
});

/** What the scale finder asks of the API. */
export type ScaleReader = Pick<RestClient, 'request'>;

export function workloadFinders(l: WorkloadLookups, client: ScaleReader): ControllerFinder[] {
  const replicationController: ControllerFinder = (ref, ns) => {
    if (!isGroupKind(ref, 'ReplicationController', [''])) return Promise.resolve(undefined);
    const rc = referenced(l.replicationControllers, ref, ns);
    return Promise.resolve(rc && found(rc));
  };
  const deployment: ControllerFinder = (ref, ns) => {
    if (!isGroupKind(ref, 'ReplicaSet', ['apps', 'extensions'])) return Promise.resolve(undefined);
    const rs = referenced(l.replicaSets, ref, ns);
    const rsRef = rs && controllerOf(rs);
    if (!rsRef || !isGroupKind(rsRef, 'Deployment', ['apps', 'extensions']))
      return Promise.resolve(undefined);
    const d = referenced(l.deployments, rsRef, ns);
    return Promise.resolve(d && found(d));
  };
  const replicaSet: ControllerFinder = (ref, ns) => {
    if (!isGroupKind(ref, 'ReplicaSet', ['apps', 'extensions'])) return Promise.resolve(undefined);
    const rs = referenced(l.replicaSets, ref, ns);
    // A ReplicaSet a Deployment controls counts as its Deployment.
    if (!rs || controllerOf(rs)?.kind === 'Deployment') return Promise.resolve(undefined);
    return Promise.resolve(found(rs));
  };
  const statefulSet: ControllerFinder = (ref, ns) => {
    if (!isGroupKind(ref, 'StatefulSet', ['apps'])) return Promise.resolve(undefined);
    const ss = referenced(l.statefulSets, ref, ns);
    return Promise.resolve(ss && found(ss));
  };
  return [
    replicationController,
    deployment,
    replicaSet,
    statefulSet,
    (ref, ns) => scaleController(client, ref, ns),
  ];
}

interface ResourceList {
  resources?: { name: string; kind: string; namespaced: boolean }[];
}

/**
 * getScaleController: the scale subresource of the kind the reference names (upstream's
 * RESTMapping and ScalesGetter). A missing object answers undefined; a kind not served, or one
 * without a scale subresource, is an error (the budget's sync then fails safe).
 */
async function scaleController(
  client: ScaleReader,
  ref: OwnerReference,
  namespace: string
): Promise<ControllerAndScale | undefined> {
  const base = ref.apiVersion.includes('/') ? `/apis/${ref.apiVersion}` : `/api/${ref.apiVersion}`;
  let list: ResourceList;
  try {
    list = (await client.request('GET', base)) as ResourceList;
  } catch (err) {
    if (!isNotFound(err)) throw err;
    list = {};
  }
  const resource = (list.resources ?? []).find((r) => r.kind === ref.kind && !r.name.includes('/'));
  if (!resource) {
    throw new Error(
      `no matches for kind ${JSON.stringify(ref.kind)} in version ${JSON.stringify(ref.apiVersion)}`
    );
  }
  const group = groupOf(ref.apiVersion);
  const groupResource = group ? `${resource.name}.${group}` : resource.name;
  if (!(list.resources ?? []).some((r) => r.name === `${resource.name}/scale`)) {
    throw new Error(`${groupResource} does not implement the scale subresource`);
  }
  const ns = resource.namespaced ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  let scale: Json;
  try {
    scale = await client.request(
      'GET',
      `${base}${ns}/${resource.name}/${encodeURIComponent(ref.name)}/scale`
    );
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
  const uid = (metaOf(scale) as { uid?: string }).uid;
  if (uid !== ref.uid) return undefined;
  return { uid, scale: (scale['spec'] as { replicas?: number } | undefined)?.replicas ?? 0 };
}
