// LimitRanger (k8s plugin/pkg/admission/limitranger): the namespace's LimitRanges give pods'
// containers their default requests and limits (admit: `default` and `defaultRequest` of the
// Container items, recorded in the `kubernetes.io/limit-ranger` annotation) and bound what pods
// and persistent volume claims may ask (validate: min, max and maxLimitRequestRatio of the
// Container, Pod and PersistentVolumeClaim items), refusing with upstream's messages. Pods are
// handled on create only (their containers' resources cannot change), claims on create and
// update; subresources are left alone.
import { newForbidden } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import {
  addResourceLists,
  formatQuantity,
  milliValue,
  parseResourceList,
} from '@orch/apimachinery/quota';
import type { Quantity, ResourceList } from '@orch/apimachinery/quota';
import type {
  AdmissionRequest,
  ObjectLister,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'LimitRanger' satisfies ServicePluginName;

export const limitRangerAnnotation = 'kubernetes.io/limit-ranger';

type Json = Record<string, unknown>;

interface LimitRangeItem {
  type?: string;
  max?: Record<string, string>;
  min?: Record<string, string>;
  default?: Record<string, string>;
  defaultRequest?: Record<string, string>;
  maxLimitRequestRatio?: Record<string, string>;
}

const itemsOf = (lr: ApiObject): LimitRangeItem[] =>
  (lr['spec'] as { limits?: LimitRangeItem[] } | undefined)?.limits ?? [];

const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

/** Is the write one LimitRanger acts on (DefaultLimitRangerActions.SupportsAttributes)? */
function supports(req: AdmissionRequest): boolean {
  if (req.subResource !== '') return false;
  const { group, kind } = req.kind;
  if (group !== '') return false;
  if (kind === 'Pod') return req.operation === 'CREATE';
  return kind === 'PersistentVolumeClaim';
}

// ---- defaults (mergePodResourceRequirements)

/** The Container items' default requests and limits, later items winning. */
function containerDefaults(ranges: ApiObject[]): { requests: Json; limits: Json } {
  const requests: Json = {};
  const limits: Json = {};
  for (const lr of ranges) {
    for (const item of itemsOf(lr)) {
      if (item.type !== 'Container') continue;
      Object.assign(requests, item.defaultRequest ?? {});
      Object.assign(limits, item.default ?? {});
    }
  }
  return { requests, limits };
}

function mergeContainer(
  c: Json,
  defaults: { requests: Json; limits: Json },
  prefix: string,
  notes: string[]
): void {
  const resources = (c['resources'] ??= {}) as Json;
  const limits = (resources['limits'] ??= {}) as Json;
  const requests = (resources['requests'] ??= {}) as Json;
  // A limit without a request makes the request (upstream's pod defaulting, before admission).
  for (const [k, v] of Object.entries(limits)) if (requests[k] === undefined) requests[k] = v;
  const setLimits: string[] = [];
  const setRequests: string[] = [];
  for (const [k, v] of Object.entries(defaults.limits)) {
    if (limits[k] === undefined) {
      limits[k] = v;
      setLimits.push(k);
    }
  }
  for (const [k, v] of Object.entries(defaults.requests)) {
    if (requests[k] === undefined) {
      requests[k] = v;
      setRequests.push(k);
    }
  }
  if (Object.keys(limits).length === 0) delete resources['limits'];
  if (Object.keys(requests).length === 0) delete resources['requests'];
  const name = String(c['name'] ?? '');
  if (setRequests.length > 0) {
    notes.push(`${setRequests.sort().join(', ')} request for ${prefix} ${name}`);
  }
  if (setLimits.length > 0)
    notes.push(`${setLimits.sort().join(', ')} limit for ${prefix} ${name}`);
}

/** Sets the defaults on a pod's containers; records what was set in the annotation. */
export function applyPodDefaults(pod: ApiObject, ranges: ApiObject[]): void {
  const defaults = containerDefaults(ranges);
  const spec = (pod['spec'] ?? {}) as Json;
  const notes: string[] = [];
  for (const c of arr(spec['containers'])) mergeContainer(c, defaults, 'container', notes);
  for (const c of arr(spec['initContainers'])) mergeContainer(c, defaults, 'init container', notes);
  if (notes.length > 0) {
    pod.metadata.annotations = {
      ...(pod.metadata.annotations ?? {}),
      [limitRangerAnnotation]: `LimitRanger plugin set: ${notes.join('; ')}`,
    };
  }
}

// ---- constraints (minConstraint, maxConstraint, limitRequestRatioConstraint)

const q = (list: ResourceList, name: string): Quantity | undefined => list[name];
const s = formatQuantity;

function minConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  requests: ResourceList,
  limits: ResourceList
): string | undefined {
  const req = q(requests, name);
  const lim = q(limits, name);
  if (!req) return `minimum ${name} usage per ${type} is ${s(enforced)}.  No request is specified`;
  if (req.nano < enforced.nano) {
    return `minimum ${name} usage per ${type} is ${s(enforced)}, but request is ${s(req)}`;
  }
  if (lim && lim.nano < enforced.nano) {
    return `minimum ${name} usage per ${type} is ${s(enforced)}, but limit is ${s(lim)}`;
  }
  return undefined;
}

function maxConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  requests: ResourceList,
  limits: ResourceList
): string | undefined {
  const req = q(requests, name);
  const lim = q(limits, name);
  if (!lim) return `maximum ${name} usage per ${type} is ${s(enforced)}.  No limit is specified`;
  if (lim.nano > enforced.nano) {
    return `maximum ${name} usage per ${type} is ${s(enforced)}, but limit is ${s(lim)}`;
  }
  if (req && req.nano > enforced.nano) {
    return `maximum ${name} usage per ${type} is ${s(enforced)}, but request is ${s(req)}`;
  }
  return undefined;
}

/** A claim's max is held against its request (maxRequestConstraint). */
function maxRequestConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  requests: ResourceList
): string | undefined {
  const req = q(requests, name);
  if (!req) return `maximum ${name} usage per ${type} is ${s(enforced)}.  No request is specified`;
  if (req.nano > enforced.nano) {
    return `maximum ${name} usage per ${type} is ${s(enforced)}, but request is ${s(req)}`;
  }
  return undefined;
}

function ratioConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  requests: ResourceList,
  limits: ResourceList
): string | undefined {
  const req = q(requests, name);
  const lim = q(limits, name);
  if (!req || req.nano === 0n) {
    return `${name} max limit to request ratio per ${type} is ${s(enforced)}, but no request is specified or request is 0`;
  }
  if (!lim || lim.nano === 0n) {
    return `${name} max limit to request ratio per ${type} is ${s(enforced)}, but no limit is specified or limit is 0`;
  }
  const observed = Number(milliValue(lim)) / Number(milliValue(req));
  if (observed * 1000 > Number(milliValue(enforced))) {
    return `${name} max limit to request ratio per ${type} is ${s(enforced)}, but provided ratio is ${observed.toFixed(6)}`;
  }
  return undefined;
}

function checkItem(
  item: LimitRangeItem,
  type: string,
  requests: ResourceList,
  limits: ResourceList,
  errs: string[]
): void {
  const push = (e: string | undefined): void => void (e && errs.push(e));
  for (const [k, v] of Object.entries(parseResourceList(item.min)).sort()) {
    push(minConstraint(type, k, v, requests, limits));
  }
  for (const [k, v] of Object.entries(parseResourceList(item.max)).sort()) {
    push(maxConstraint(type, k, v, requests, limits));
  }
  for (const [k, v] of Object.entries(parseResourceList(item.maxLimitRequestRatio)).sort()) {
    push(ratioConstraint(type, k, v, requests, limits));
  }
}

function containerLists(c: Json): { requests: ResourceList; limits: ResourceList } {
  const limits = parseResourceList((c['resources'] as Json | undefined)?.['limits']);
  const requests = parseResourceList((c['resources'] as Json | undefined)?.['requests']);
  return { requests, limits };
}

/** max(sum of containers, each init container) of requests or limits (podRequests, podLimits). */
function podTotal(spec: Json, which: 'requests' | 'limits'): ResourceList {
  let sum: ResourceList = {};
  for (const c of arr(spec['containers'])) sum = addResourceLists(sum, containerLists(c)[which]);
  for (const c of arr(spec['initContainers'])) {
    for (const [k, v] of Object.entries(containerLists(c)[which])) {
      if (!sum[k] || v.nano > sum[k].nano) sum[k] = v;
    }
  }
  return sum;
}

/** Every bound the ranges set that the pod breaks (PodValidateLimitFunc). */
export function podLimitErrors(pod: ApiObject, ranges: ApiObject[]): string[] {
  const errs: string[] = [];
  const spec = (pod['spec'] ?? {}) as Json;
  for (const lr of ranges) {
    for (const item of itemsOf(lr)) {
      if (item.type === 'Container') {
        for (const c of [...arr(spec['containers']), ...arr(spec['initContainers'])]) {
          const { requests, limits } = containerLists(c);
          checkItem(item, 'Container', requests, limits, errs);
        }
      }
      if (item.type === 'Pod') {
        checkItem(item, 'Pod', podTotal(spec, 'requests'), podTotal(spec, 'limits'), errs);
      }
    }
  }
  return errs;
}

/** Every bound the ranges set that the claim breaks (PersistentVolumeClaimValidateLimitFunc). */
export function claimLimitErrors(pvc: ApiObject, ranges: ApiObject[]): string[] {
  const errs: string[] = [];
  const requests = parseResourceList(
    ((pvc['spec'] as Json | undefined)?.['resources'] as Json | undefined)?.['requests']
  );
  for (const lr of ranges) {
    for (const item of itemsOf(lr)) {
      if (item.type !== 'PersistentVolumeClaim') continue;
      for (const [k, v] of Object.entries(parseResourceList(item.min)).sort()) {
        const e = minConstraint('PersistentVolumeClaim', k, v, requests, {});
        if (e) errs.push(e);
      }
      for (const [k, v] of Object.entries(parseResourceList(item.max)).sort()) {
        const e = maxRequestConstraint('PersistentVolumeClaim', k, v, requests);
        if (e) errs.push(e);
      }
    }
  }
  return errs;
}

/** utilerrors.NewAggregate(errs).Error(): one message as is, several deduplicated in brackets. */
export function aggregateMessage(errs: readonly string[]): string {
  const unique = [...new Set(errs)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

const resourceOf = (req: AdmissionRequest): { group: string; resource: string } => ({
  group: req.resource.group,
  resource: req.resource.resource,
});

/** The name admission errors give (the object's name, else its generateName). */
export function objectName(obj: ApiObject | undefined, fallback: string): string {
  return obj?.metadata.name || obj?.metadata.generateName || fallback || 'Unknown';
}

export function newLimitRanger(deps: PluginDeps): ServicePlugin {
  let lister: Promise<ObjectLister> | undefined;
  const ranges = async (namespace: string): Promise<ApiObject[]> => {
    lister ??= deps.listers.forResource('', 'limitranges');
    lister.catch(() => (lister = undefined));
    const all = (await lister).list(namespace);
    return [...all].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  };
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async admit(req) {
      if (!supports(req) || !req.object || req.kind.kind !== 'Pod') return;
      if (req.oldObject?.metadata.deletionTimestamp) return;
      const items = await ranges(req.namespace);
      if (items.length === 0) return;
      const pod = structuredClone(req.object);
      applyPodDefaults(pod, items);
      req.object = pod;
    },
    async validate(req) {
      if (!supports(req) || !req.object) return;
      if (req.oldObject?.metadata.deletionTimestamp) return;
      const items = await ranges(req.namespace);
      if (items.length === 0) return;
      const errs =
        req.kind.kind === 'Pod'
          ? podLimitErrors(req.object, items)
          : claimLimitErrors(req.object, items);
      if (errs.length > 0) {
        throw newForbidden(
          resourceOf(req),
          objectName(req.object, req.name),
          aggregateMessage(errs)
        );
      }
    },
    async mayValidate(req) {
      if (!supports(req)) return false;
      return (await ranges(req.namespace)).length > 0;
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newLimitRanger);
}
