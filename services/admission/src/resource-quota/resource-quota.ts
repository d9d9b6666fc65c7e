// ResourceQuota (k8s staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota,
// controller.go checkRequest and checkQuotas), validating: a namespaced create or update that
// consumes what a quota of its namespace limits is charged to that quota before it is admitted.
// The charge is a write of the quota's status.used with the read revision as precondition,
// read again and retried on conflict, so two writers (any number of gateways and admission
// services) can never both take the last unit. Refusals are upstream's 403s:
//   exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2
//   failed quota: q: must specify cpu for: app
//   status unknown for quota: q, resources: pods
//   insufficient quota to consume: requests.cpu      (ResourceQuotaConfiguration limitedResources)
// A quota's status.hard is set by the resource quota controller; until then the quota limits
// nothing. A dry run is checked against the quotas but charges nothing.
import { isConflict, isNotFound, newForbidden } from '@orch/apimachinery/errors';
import type { StatusError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import {
  addResourceLists,
  evaluatorFor,
  formatResourceList,
  hardResourceNames,
  lessThanOrEqual,
  maskResourceList,
  negativeResources,
  parseResourceList,
  prettyPrintResourceList,
  quotaMatches,
  quotaScopes,
  removeZeros,
  subtractNonNegative,
} from '@orch/apimachinery/quota';
import type { Evaluator, ResourceList, ScopeRequirement } from '@orch/apimachinery/quota';
import { resourcePrefix } from '../listers.js';
import type {
  AdmissionRequest,
  ObjectLister,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';
import { parseResourceQuotaConfiguration } from './resource-quota-configuration.js';
import type { LimitedResource } from './resource-quota-configuration.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'ResourceQuota' satisfies ServicePluginName;

type Json = Record<string, unknown>;

/** How the plugin reads and writes a quota (the storage service's client). */
export interface QuotaStorage {
  get(key: string, consistency: 'MOST_RECENT'): Promise<Json>;
  list(opts: { prefix: string; consistency: 'MOST_RECENT' }): Promise<{ items: Json[] }>;
  update(key: string, object: Json, pre: { revision: number }): Promise<Json>;
}

/** How long a live lookup of a namespace without quotas in the cache is reused (upstream's liveTTL). */
const liveLookupTtlMs = 30_000;
/** Namespaces whose live lookups are kept (upstream's LRU of 100). */
const liveLookupEntries = 100;

/** Attempts to charge one quota before the write fails with the last conflict. */
const maxChargeAttempts = 50;

const used = (q: Json): ResourceList =>
  parseResourceList((q['status'] as Json | undefined)?.['used']);
const hard = (q: Json): ResourceList =>
  parseResourceList((q['status'] as Json | undefined)?.['hard']);
const nameOf = (o: ApiObject | Json): string =>
  String((o['metadata'] as Json | undefined)?.['name'] ?? '');

/** Has status.used a value for every resource the quota limits here (hasUsageStats)? */
function hasUsageStats(quota: Json, resources: readonly string[]): boolean {
  const u = (quota['status'] as Json | undefined)?.['used'] as Json | undefined;
  const h = (quota['status'] as Json | undefined)?.['hard'] as Json | undefined;
  return resources.every((r) => h?.[r] === undefined || u?.[r] !== undefined);
}

/** Of the usage, what a limited resource's matchContains names (limitedByDefault). */
function limitedByDefault(usage: ResourceList, limited: readonly LimitedResource[]): string[] {
  const out = new Set<string>();
  for (const l of limited) {
    for (const [k, v] of Object.entries(usage)) {
      if (v.nano > 0n && l.matchContains.some((m) => k.includes(m))) out.add(k);
    }
  }
  return [...out].sort();
}

const sameScope = (a: ScopeRequirement, b: ScopeRequirement): boolean =>
  a.scopeName === b.scopeName &&
  a.operator === b.operator &&
  JSON.stringify([...(a.values ?? [])].sort()) === JSON.stringify([...(b.values ?? [])].sort());

/** Go's %v of a []ScopedResourceSelectorRequirement. */
const printScopes = (scopes: readonly ScopeRequirement[]): string =>
  `[${scopes.map((s) => `{${s.scopeName} ${s.operator} [${(s.values ?? []).join(' ')}]}`).join(' ')}]`;

export interface ResourceQuotaDeps {
  quotas: () => Promise<ObjectLister>;
  storage: QuotaStorage;
  limitedResources: readonly LimitedResource[];
}

/** The plugin's logic over its dependencies (the factory below wires the service's). */
export class QuotaAdmission {
  readonly #deps: ResourceQuotaDeps;
  /** Live lookups by namespace: when they expire, and the quotas found (or being found). */
  readonly #live = new Map<string, { expiry: number; items: Promise<Json[]> }>();

  constructor(deps: ResourceQuotaDeps) {
    this.#deps = deps;
  }

  /**
   * The namespace's quotas: the informer's, or when it holds none, a live list from storage
   * reused for 30 s and shared by concurrent requests (upstream's quotaAccessor.GetQuotas), so
   * a quota just created is enforced before the informer has it.
   */
  async quotasOf(namespace: string): Promise<Json[]> {
    const cached = (await this.#deps.quotas()).list(namespace);
    if (cached.length > 0) return cached;
    const now = Date.now();
    let entry = this.#live.get(namespace);
    if (!entry || entry.expiry <= now) {
      const items = this.#deps.storage
        .list({
          prefix: `${resourcePrefix('', 'resourcequotas')}${namespace}/`,
          consistency: 'MOST_RECENT',
        })
        .then((r) => r.items);
      items.catch(() => this.#live.delete(namespace));
      entry = { expiry: now + liveLookupTtlMs, items };
      this.#live.delete(namespace);
      this.#live.set(namespace, entry);
      if (this.#live.size > liveLookupEntries) {
        this.#live.delete(this.#live.keys().next().value as string);
      }
    }
    return entry.items;
  }

  /** The evaluator for the write, when quota applies to it at all. */
  evaluatorFor(req: AdmissionRequest): Evaluator | undefined {
    if (req.subResource !== '' || req.namespace === '' || !req.object) return undefined;
    const ev = evaluatorFor(req.resource.group, req.resource.resource);
    return ev.handles(req.operation) ? ev : undefined;
  }

  async mayValidate(req: AdmissionRequest): Promise<boolean> {
    const ev =
      req.subResource === '' && req.namespace !== ''
        ? evaluatorFor(req.resource.group, req.resource.resource)
        : undefined;
    if (!ev?.handles(req.operation)) return false;
    if (this.#limitedFor(req).length > 0) return true;
    return (await this.quotasOf(req.namespace)).length > 0;
  }

  #limitedFor(req: AdmissionRequest): LimitedResource[] {
    return this.#deps.limitedResources.filter(
      (l) => l.apiGroup === req.resource.group && l.resource === req.resource.resource
    );
  }

  #forbidden(req: AdmissionRequest, why: string): StatusError {
    const obj = req.object;
    const name = obj?.metadata.name || obj?.metadata.generateName || req.name || 'Unknown';
    return newForbidden({ group: req.resource.group, resource: req.resource.resource }, name, why);
  }

  async validate(req: AdmissionRequest): Promise<void> {
    const ev = this.evaluatorFor(req);
    const obj = req.object;
    if (!ev || !obj) return; // (evaluatorFor answers none without an object)
    const quotas = [...(await this.quotasOf(req.namespace))].sort((a, b) =>
      nameOf(a).localeCompare(nameOf(b))
    );

    const limited = this.#limitedFor(req);
    const limitedNames = limited.length > 0 ? limitedByDefault(ev.usage(obj), limited) : [];
    const limitedScopes: ScopeRequirement[] = [];
    for (const l of limited) {
      for (const s of l.matchScopes) {
        if (ev.matchesScope(s, obj) && !limitedScopes.some((x) => sameScope(x, s))) {
          limitedScopes.push(s);
        }
      }
    }

    const interesting: Json[] = [];
    const restricted = new Set<string>();
    const restrictedScopes: ScopeRequirement[] = [];
    for (const quota of quotas) {
      if (!quotaMatches(ev, quota, obj)) continue;
      const resources = ev.matchingResources(hardResourceNames(quota));
      const failed = ev.constraints(resources, obj);
      if (failed) throw this.#forbidden(req, `failed quota: ${nameOf(quota)}: ${failed}`);
      if (!hasUsageStats(quota, resources)) {
        throw this.#forbidden(
          req,
          `status unknown for quota: ${nameOf(quota)}, resources: ${[...resources].sort().join(',')}`
        );
      }
      interesting.push(quota);
      for (const r of resources) restricted.add(r);
      restrictedScopes.push(...quotaScopes(quota));
    }

    const uncovered = limitedNames.filter((n) => !restricted.has(n));
    if (uncovered.length > 0) {
      throw this.#forbidden(req, `insufficient quota to consume: ${uncovered.join(',')}`);
    }
    const uncoveredScopes = limitedScopes.filter(
      (s) => !restrictedScopes.some((x) => sameScope(x, s))
    );
    if (uncoveredScopes.length > 0) {
      throw this.#forbidden(
        req,
        `insufficient quota to match these scopes: ${printScopes(uncoveredScopes)}`
      );
    }
    if (interesting.length === 0) return;

    let delta = ev.usage(obj);
    const negative = negativeResources(delta);
    if (negative.length > 0) {
      throw this.#forbidden(req, `quota usage is negative for resource(s): ${negative.join(',')}`);
    }
    if (req.operation === 'UPDATE' && req.oldObject?.metadata.resourceVersion) {
      delta = subtractNonNegative(delta, ev.usage(req.oldObject));
    }
    delta = removeZeros(delta);
    if (Object.keys(delta).length === 0) return;

    for (const quota of interesting) await this.#charge(req, ev, obj, quota, delta);
  }

  /** Charges one quota: the status write with the read revision as precondition, retried on conflict. */
  async #charge(
    req: AdmissionRequest,
    ev: Evaluator,
    obj: ApiObject,
    cached: Json,
    delta: ResourceList
  ): Promise<void> {
    const key = `${resourcePrefix('', 'resourcequotas')}${req.namespace}/${nameOf(cached)}`;
    let quota: Json | undefined = cached;
    for (let attempt = 1; ; attempt++) {
      if (!quota) {
        try {
          quota = await this.#deps.storage.get(key, 'MOST_RECENT');
        } catch (err) {
          if (isNotFound(err)) return; // the quota went away meanwhile: nothing to charge
          throw err;
        }
        if (!quotaMatches(ev, quota, obj)) return;
      }
      const limits = hard(quota);
      const requested = maskResourceList(delta, Object.keys(limits));
      if (Object.keys(requested).length === 0) return;
      const current = used(quota);
      const next = addResourceLists(current, requested);
      const check = lessThanOrEqual(maskResourceList(next, Object.keys(requested)), limits);
      if (!check.allowed) {
        throw this.#forbidden(
          req,
          `exceeded quota: ${nameOf(quota)}, requested: ${prettyPrintResourceList(
            maskResourceList(requested, check.exceeded)
          )}, used: ${prettyPrintResourceList(
            maskResourceList(current, check.exceeded)
          )}, limited: ${prettyPrintResourceList(maskResourceList(limits, check.exceeded))}`
        );
      }
      if (req.dryRun) return;
      const updated = structuredClone(quota);
      const status = (updated['status'] ??= {}) as Json;
      status['used'] = {
        ...((status['used'] as Json | undefined) ?? {}),
        ...formatResourceList(next),
      };
      const revision = Number((quota['metadata'] as Json)['resourceVersion']);
      try {
        await this.#deps.storage.update(key, updated, { revision });
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err) || attempt >= maxChargeAttempts) throw err;
        quota = undefined; // read the latest and check again
      }
    }
  }
}

export function newResourceQuota(deps: PluginDeps): ServicePlugin {
  const config = parseResourceQuotaConfiguration(deps.config);
  const storage = deps.storage;
  if (!storage) throw new Error('ResourceQuota needs the storage client');
  let lister: Promise<ObjectLister> | undefined;
  const quotas = (): Promise<ObjectLister> => {
    lister ??= deps.listers.forResource('', 'resourcequotas');
    lister.catch(() => (lister = undefined));
    return lister;
  };
  const admission = new QuotaAdmission({
    quotas,
    storage,
    limitedResources: config.limitedResources,
  });
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    validate: (req) => admission.validate(req),
    mayValidate: (req) => admission.mayValidate(req),
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newResourceQuota);
}
