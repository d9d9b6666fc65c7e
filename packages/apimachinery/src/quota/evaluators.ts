// Quota evaluators (k8s.io/apiserver/pkg/quota/v1 Evaluator, pkg/quota/v1/evaluator/core):
// what an object of a resource consumes (`usage`), whether a quota applies to it (`matches`:
// it limits one of the evaluator's resources and every scope of the quota selects the object)
// and what it must declare to be counted (`constraints`). Pods, services and persistent volume
// claims have their own; every other resource is counted as objects (`count/<resource>.<group>`).
import type { ScopedResourceSelectorRequirement } from '@orch/api/core/v1';
import { quantityFromInt } from './quantity.js';
import { addResourceLists, parseResourceList } from './resource-list.js';
import type { ResourceList } from './resource-list.js';

type Json = Record<string, unknown>;

export type QuotaOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** One requirement of a quota's scopeSelector (k8s ScopedResourceSelectorRequirement). */
export type ScopeRequirement = ScopedResourceSelectorRequirement;

export interface Evaluator {
  readonly group: string;
  readonly resource: string;
  /** Does a write of this operation change usage (quota.Evaluator.Handles)? */
  handles(operation: QuotaOperation): boolean;
  /** Of `names`, those this evaluator computes (MatchingResources). */
  matchingResources(names: readonly string[]): string[];
  /** An error message when the object does not declare what a quota on `required` needs. */
  constraints(required: readonly string[], obj: Json): string | undefined;
  /** Does `scope` select the object? */
  matchesScope(scope: ScopeRequirement, obj: Json): boolean;
  /** What the object consumes. */
  usage(obj: Json, now?: number): ResourceList;
}

const get = (o: unknown, path: string): unknown => {
  let cur = o;
  for (const p of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Json)[p];
  }
  return cur;
};
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const one = (): ResourceList['x'] => quantityFromInt(1);

/** The scopes of a quota as selector requirements (helper.GetScopeSelectorsFromQuota). */
export function quotaScopes(quota: Json): ScopeRequirement[] {
  const out: ScopeRequirement[] = [];
  for (const s of (get(quota, 'spec.scopes') as string[] | undefined) ?? []) {
    out.push({ scopeName: s, operator: 'Exists' });
  }
  for (const r of arr(get(quota, 'spec.scopeSelector.matchExpressions'))) {
    out.push(r as ScopeRequirement); // the quota's JSON, validated when it was written
  }
  return out;
}

/** The resource names of a quota's status.hard. */
export function hardResourceNames(quota: Json): string[] {
  return Object.keys((get(quota, 'status.hard') as Json | undefined) ?? {});
}

/**
 * Does the quota apply to the object (quota.Matches): it limits at least one of the
 * evaluator's resources and each of its scopes selects the object.
 */
export function quotaMatches(evaluator: Evaluator, quota: Json, obj: Json): boolean {
  if (evaluator.matchingResources(hardResourceNames(quota)).length === 0) return false;
  return quotaScopes(quota).every((s) => evaluator.matchesScope(s, obj));
}

/** The object-count resource name of a resource (`count/pods`, `count/deployments.apps`). */
export function objectCountName(group: string, resource: string): string {
  return group === '' ? `count/${resource}` : `count/${resource}.${group}`;
}

/** Core resources that have a name of their own besides `count/` (quota's legacy names). */
const legacyCountNames = new Set([
  'configmaps',
  'secrets',
  'resourcequotas',
  'replicationcontrollers',
  'persistentvolumeclaims',
  'services',
  'pods',
]);

const noScopes = (): boolean => false;

/** Counts objects of a resource: `count/<resource>.<group>` (and the legacy core name). */
export function objectCountEvaluator(group: string, resource: string): Evaluator {
  const names = [objectCountName(group, resource)];
  if (group === '' && legacyCountNames.has(resource)) names.push(resource);
  return {
    group,
    resource,
    handles: (op) => op === 'CREATE',
    matchingResources: (input) => input.filter((n) => names.includes(n)),
    constraints: () => undefined,
    matchesScope: noScopes,
    usage: () => Object.fromEntries(names.map((n) => [n, one()])),
  };
}

// ---- pods (pkg/quota/v1/evaluator/core/pods.go)

const podComputeNames = [
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
];
const podNames = new Set(['count/pods', ...podComputeNames]);
const cpuMemory = new Set([
  'cpu',
  'memory',
  'requests.cpu',
  'requests.memory',
  'limits.cpu',
  'limits.memory',
]);

/** An extended resource name (a domain outside kubernetes.io/orch.io, not requests.*). */
function isExtendedResource(name: string): boolean {
  if (!name.includes('/') || name.startsWith('requests.')) return false;
  const domain = name.split('/')[0]!;
  return !domain.endsWith('kubernetes.io') && !domain.endsWith('orch.io');
}

function podMatchingResource(name: string): boolean {
  return (
    podNames.has(name) ||
    name.startsWith('hugepages-') ||
    name.startsWith('requests.hugepages-') ||
    (name.startsWith('requests.') && isExtendedResource(name.slice('requests.'.length)))
  );
}

/** A container's requests, those not given defaulting to its limits (SetDefaults_Pod). */
function containerResources(c: Json): { requests: ResourceList; limits: ResourceList } {
  const limits = parseResourceList(get(c, 'resources.limits'));
  const requests = { ...limits, ...parseResourceList(get(c, 'resources.requests')) };
  return { requests, limits };
}

/** Usage from one set of requests and limits (podComputeUsageHelper). */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = { pods: one() };
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    if (requests[r]) {
      out[r] = requests[r];
      out[`requests.${r}`] = requests[r];
    }
    if (limits[r]) out[`limits.${r}`] = limits[r];
  }
  for (const [r, q] of Object.entries(requests)) {
    if (r.startsWith('hugepages-')) {
      out[r] = q;
      out[`requests.${r}`] = q;
    }
    if (isExtendedResource(r)) out[`requests.${r}`] = q;
  }
  return out;
}

/** max(sum of containers, each init container) per resource, plus overhead (resourcehelper.PodRequests/PodLimits). */
function podTotals(pod: Json, which: 'requests' | 'limits'): ResourceList {
  let sum: ResourceList = {};
  for (const c of arr(get(pod, 'spec.containers'))) {
    sum = addResourceLists(sum, containerResources(c)[which]);
  }
  for (const c of arr(get(pod, 'spec.initContainers'))) {
    for (const [r, q] of Object.entries(containerResources(c)[which])) {
      if (!sum[r] || q.nano > sum[r].nano) sum[r] = q;
    }
  }
  const overhead = parseResourceList(get(pod, 'spec.overhead'));
  if (which === 'limits') {
    for (const r of Object.keys(overhead)) if (!sum[r]) delete overhead[r];
  }
  return addResourceLists(sum, overhead);
}

/** A pod in a terminal phase or past its deletion grace no longer counts (QuotaV1Pod). */
function podCounts(pod: Json, now: number): boolean {
  const phase = get(pod, 'status.phase');
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const deletion = get(pod, 'metadata.deletionTimestamp');
  if (typeof deletion === 'string') {
    const grace = Number(get(pod, 'metadata.deletionGracePeriodSeconds') ?? 0);
    if (now > Date.parse(deletion) + grace * 1000) return false;
  }
  return true;
}

/** No container requests or limits cpu or memory (qos BestEffort). */
export function isBestEffort(pod: Json): boolean {
  const containers = [...arr(get(pod, 'spec.containers')), ...arr(get(pod, 'spec.initContainers'))];
  return containers.every((c) => {
    const { requests, limits } = containerResources(c);
    return !['cpu', 'memory'].some((r) => requests[r] || limits[r]);
  });
}

function isTerminating(pod: Json): boolean {
  const ads = get(pod, 'spec.activeDeadlineSeconds');
  return typeof ads === 'number' && ads >= 0;
}

function usesCrossNamespaceAffinity(pod: Json): boolean {
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = get(pod, `spec.affinity.${kind}`) as Json | undefined;
    if (!a) continue;
    const terms = [
      ...arr(a['requiredDuringSchedulingIgnoredDuringExecution']),
      ...arr(a['preferredDuringSchedulingIgnoredDuringExecution']).map(
        (w) => (w['podAffinityTerm'] ?? {}) as Json
      ),
    ];
    if (terms.some((t) => arr(t['namespaces']).length > 0 || t['namespaceSelector'] !== undefined))
      return true;
  }
  return false;
}

/** Does a selector requirement select `value` (labels.Selector over {key: value})? */
function selectsValue(req: ScopeRequirement, value: string): boolean {
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return values.includes(value);
    case 'NotIn':
      return !values.includes(value);
    case 'Exists':
      return true;
    default:
      return false; // DoesNotExist: the key is always present
  }
}

export const podEvaluator: Evaluator = {
  group: '',
  resource: 'pods',
  handles: (op) => op === 'CREATE',
  matchingResources: (input) => input.filter(podMatchingResource),
  constraints(required, pod) {
    const req = required.filter((r) => cpuMemory.has(r));
    const missing = new Map<string, Set<string>>();
    const containers = [
      ...arr(get(pod, 'spec.containers')),
      ...arr(get(pod, 'spec.initContainers')),
    ];
    for (const c of containers) {
      const { requests, limits } = containerResources(c);
      const have = new Set(Object.keys(computeUsage(requests, limits)));
      for (const r of req) {
        if (have.has(r)) continue;
        if (!missing.has(r)) missing.set(r, new Set());
        missing.get(r)!.add(String(c['name'] ?? ''));
      }
    }
    if (missing.size === 0) return undefined;
    const parts = [...missing.keys()]
      .sort()
      .map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
    return `must specify ${parts.join('; ')}`;
  },
  matchesScope(scope, pod) {
    switch (scope.scopeName) {
      case 'Terminating':
        return isTerminating(pod);
      case 'NotTerminating':
        return !isTerminating(pod);
      case 'BestEffort':
        return isBestEffort(pod);
      case 'NotBestEffort':
        return !isBestEffort(pod);
      case 'PriorityClass': {
        const pc = String(get(pod, 'spec.priorityClassName') ?? '');
        if (scope.operator === 'Exists') return pc !== '';
        return selectsValue(scope, pc);
      }
      case 'CrossNamespacePodAffinity':
        return usesCrossNamespaceAffinity(pod);
      default:
        return false;
    }
  },
  usage(pod, now = Date.now()) {
    const out: ResourceList = { 'count/pods': one() };
    if (!podCounts(pod, now)) return out;
    return { ...out, ...computeUsage(podTotals(pod, 'requests'), podTotals(pod, 'limits')) };
  },
};

// ---- services (pkg/quota/v1/evaluator/core/services.go)

const serviceNames = ['count/services', 'services', 'services.nodeports', 'services.loadbalancers'];

export const serviceEvaluator: Evaluator = {
  group: '',
  resource: 'services',
  handles: (op) => op === 'CREATE' || op === 'UPDATE',
  matchingResources: (input) => input.filter((n) => serviceNames.includes(n)),
  constraints: () => undefined,
  matchesScope: noScopes,
  usage(svc) {
    const out: ResourceList = { 'count/services': one(), services: one() };
    const type = get(svc, 'spec.type');
    const ports = arr(get(svc, 'spec.ports')).length;
    if (type === 'NodePort') out['services.nodeports'] = quantityFromInt(ports);
    if (type === 'LoadBalancer') {
      out['services.loadbalancers'] = one();
      if (get(svc, 'spec.allocateLoadBalancerNodePorts') !== false) {
        out['services.nodeports'] = quantityFromInt(ports);
      }
    }
    return out;
  },
};

// ---- persistent volume claims (pkg/quota/v1/evaluator/core/persistent_volume_claims.go)

export const storageClassSuffix = '.storageclass.storage.orch.io/';

function pvcMatchingResource(name: string): boolean {
  return (
    ['count/persistentvolumeclaims', 'persistentvolumeclaims', 'requests.storage'].includes(name) ||
    name.endsWith(`${storageClassSuffix}persistentvolumeclaims`) ||
    name.endsWith(`${storageClassSuffix}requests.storage`)
  );
}

export const persistentVolumeClaimEvaluator: Evaluator = {
  group: '',
  resource: 'persistentvolumeclaims',
  handles: (op) => op === 'CREATE' || op === 'UPDATE',
  matchingResources: (input) => input.filter(pvcMatchingResource),
  constraints: () => undefined,
  matchesScope: noScopes,
  usage(pvc) {
    const out: ResourceList = {
      'count/persistentvolumeclaims': one(),
      persistentvolumeclaims: one(),
    };
    const cls = get(pvc, 'spec.storageClassName');
    if (typeof cls === 'string' && cls !== '') {
      out[`${cls}${storageClassSuffix}persistentvolumeclaims`] = one();
    }
    const storage = parseResourceList(get(pvc, 'spec.resources.requests'))['storage'];
    if (storage) {
      out['requests.storage'] = storage;
      if (typeof cls === 'string' && cls !== '') {
        out[`${cls}${storageClassSuffix}requests.storage`] = storage;
      }
    }
    return out;
  },
};

const special = new Map<string, Evaluator>(
  [podEvaluator, serviceEvaluator, persistentVolumeClaimEvaluator].map((e) => [
    `${e.group}/${e.resource}`,
    e,
  ])
);

/** The evaluator of a resource: its own, or an object counter (upstream's registry, filled on demand). */
export function evaluatorFor(group: string, resource: string): Evaluator {
  return special.get(`${group}/${resource}`) ?? objectCountEvaluator(group, resource);
}

/**
 * The resource a quota resource name counts (`count/deployments.apps` → apps/deployments,
 * `pods` → /pods), for the controller; undefined for names no evaluator computes.
 */
export function resourceOfQuotaName(name: string): { group: string; resource: string } | undefined {
  if (name.startsWith('count/')) {
    const rest = name.slice('count/'.length);
    const dot = rest.indexOf('.');
    return dot < 0
      ? { group: '', resource: rest }
      : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
  }
  for (const e of special.values()) if (e.matchingResources([name]).length > 0) return e;
  if (legacyCountNames.has(name)) return { group: '', resource: name };
  return undefined;
}
