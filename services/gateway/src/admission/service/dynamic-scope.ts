// The dynamic scope of the admission service's plugins whose scope depends on objects in the
// cluster (`dynamic` in `@orch/apimachinery/admission` servicePluginScopes): from the gateway's
// own watch caches of webhook configurations, ValidatingAdmissionPolicies and their bindings,
// and ResourceQuotas, whether such a plugin may act on a write. The answer is conservative: it
// says "cannot act" only when what the caches hold proves it, so a call is left out only when
// the service would have admitted the write unchanged without a warning.
//
// - any cache not synced yet: may act (the call is made; admission fails closed);
// - the webhook plugins: may act when a rule of a webhook of
//   any configuration of its kind could match the write: operation, API group and resource
//   with subresource forms as upstream's rules match them; API version and scope are not
//   looked at (matchPolicy Equivalent), nor selectors or matchConditions;
// - the policy plugin: may act when a binding names an existing policy whose
//   matchConstraints.resourceRules (and the binding's matchResources.resourceRules, when it has
//   any) could match the write as above; exclusions, selectors and conditions are not looked at;
// - the quota plugin: acts on namespaced creates and updates of an object itself (no subresource;
//   the service's plugin, as upstream's quota admission); may act on such a write when
//   a ResourceQuota exists in its namespace, or when the service may have limitedResources
//   configured (they refuse writes in namespaces without quotas), which the gateway is told;
// - PodSecurity, on a pod controller (its static scope otherwise): it only warns and audits
//   there, so it cannot act when the namespace's warn and audit levels are both privileged (its
//   labels, else the service's defaults) and neither the namespace nor the user is exempt (an
//   exemption is an audit annotation). The service tells its defaults and exemptions
//   (ListPlugins); until it has, and for a namespace not in the cache, the plugin may act.
//
// The caches lag storage by the time a change takes to reach the gateway, as the admission
// service's own caches do (upstream's webhook and policy sources are informers too).
import {
  podSecurityLabelPrefix,
  podSecurityTemplateResources,
  scopeResource,
} from '@orch/apimachinery/admission';
import type { DynamicScopeSource, PodSecurityScope } from '@orch/apimachinery/admission';
import type { Informer } from '@orch/apimachinery/informer';
import type { ResourceRegistry } from '@orch/apimachinery/registry';
import type { Cachers } from '../../cache/cachers.js';
import type { AdmissionAttributes } from '../interfaces.js';

/** The caches the scope reads; a missing one (kind not served) leaves its plugin in scope. */
export interface DynamicScopeSources {
  mutatingWebhookConfigurations?: Informer;
  validatingWebhookConfigurations?: Informer;
  validatingAdmissionPolicies?: Informer;
  validatingAdmissionPolicyBindings?: Informer;
  resourceQuotas?: Informer;
  /**
   * Whether the service's ResourceQuota plugin may have limitedResources configured (then it
   * may act in namespaces without quotas); read at each write. Absent: it may.
   */
  quotaLimitedResources?: () => boolean;
  namespaces?: Informer;
  /** PodSecurity's defaults and exemptions as the service told them; read at each write. */
  podSecurity?: () => PodSecurityScope | undefined;
}

/** The part of a write the scope looks at. */
export type ScopeAttributes = Pick<
  AdmissionAttributes,
  'operation' | 'resource' | 'subresource' | 'namespace' | 'object' | 'user'
>;

export interface DynamicAdmissionScope {
  /**
   * False only when the caches prove the plugin whose scope depends on `source`
   * (`@orch/apimachinery/admission` dynamicScopeSources) cannot act on the write.
   */
  mayAct(source: DynamicScopeSource, a: ScopeAttributes): boolean;
}

type Json = Record<string, unknown>;
interface Rule {
  operations?: unknown;
  apiGroups?: unknown;
  resources?: unknown;
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

const oneOf = (items: unknown, requested: string): boolean =>
  strings(items).some((i) => i === '*' || i === requested);

/** Could the rule match the write (operation, group, resource/subresource; not version)? */
export function ruleMayMatch(rule: Rule, a: ScopeAttributes): boolean {
  if (!oneOf(rule.operations, a.operation) || !oneOf(rule.apiGroups, a.resource.group))
    return false;
  return strings(rule.resources).some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === a.resource.resource) && (sub === '*' || sub === a.subresource);
  });
}

const rulesOf = (v: unknown): Rule[] =>
  Array.isArray(v) ? v.filter((r): r is Rule => typeof r === 'object' && r !== null) : [];

const field = (o: unknown, k: string): unknown =>
  typeof o === 'object' && o !== null ? (o as Json)[k] : undefined;

/** A webhook configuration's webhooks' rules could match the write. */
function configurationMayMatch(config: Json, a: ScopeAttributes): boolean {
  const webhooks = field(config, 'webhooks');
  if (!Array.isArray(webhooks)) return false;
  return webhooks.some((w) => rulesOf(field(w, 'rules')).some((r) => ruleMayMatch(r, a)));
}

/** The resourceRules of matchResources/matchConstraints; undefined when none are given. */
function resourceRules(match: unknown): Rule[] | undefined {
  const rules = field(match, 'resourceRules');
  return Array.isArray(rules) ? rulesOf(rules) : undefined;
}

const namespaceOf = (o: unknown): string => {
  const ns = field(field(o, 'metadata'), 'namespace');
  return typeof ns === 'string' ? ns : '';
};

/** How many objects of the informer each namespace holds, kept by its events. */
function countByNamespace(informer: Informer): ReadonlyMap<string, number> {
  const counts = new Map<string, number>();
  const add = (o: unknown, by: number): void => {
    const ns = namespaceOf(o);
    const n = (counts.get(ns) ?? 0) + by;
    if (n > 0) counts.set(ns, n);
    else counts.delete(ns);
  };
  // Objects already there (a cache synced before the scope was made) count too.
  for (const o of informer.list()) add(o, 1);
  informer.addEventHandler({
    onAdd: (o) => add(o, 1),
    onDelete: (o) => add(o, -1),
    onUpdate: (before, o) => (add(before, -1), add(o, 1)),
  });
  return counts;
}

export function dynamicAdmissionScope(sources: DynamicScopeSources): DynamicAdmissionScope {
  const quotasByNamespace = sources.resourceQuotas && countByNamespace(sources.resourceQuotas);
  const webhooksMayAct = (informer: Informer | undefined, a: ScopeAttributes): boolean => {
    if (!informer?.synced) return true;
    return informer.list().some((c) => configurationMayMatch(c, a));
  };
  const policyMayAct = (a: ScopeAttributes): boolean => {
    const policies = sources.validatingAdmissionPolicies;
    const bindings = sources.validatingAdmissionPolicyBindings;
    if (!policies?.synced || !bindings?.synced) return true;
    return bindings.list().some((b) => {
      const spec = field(b, 'spec');
      const policyName = field(spec, 'policyName');
      if (typeof policyName !== 'string') return false;
      const policy = policies.get(policyName);
      if (!policy) return false;
      const constraints = resourceRules(field(field(policy, 'spec'), 'matchConstraints'));
      if (constraints && !constraints.some((r) => ruleMayMatch(r, a))) return false;
      const narrowed = resourceRules(field(spec, 'matchResources'));
      if (narrowed && narrowed.length > 0 && !narrowed.some((r) => ruleMayMatch(r, a)))
        return false;
      return true;
    });
  };
  const quotaMayAct = (a: ScopeAttributes): boolean => {
    if (a.subresource !== '' || a.namespace === '' || !a.object) return false;
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return false;
    if (sources.quotaLimitedResources?.() ?? true) return true;
    const quotas = sources.resourceQuotas;
    if (!quotas?.synced) return true;
    return (quotasByNamespace?.get(a.namespace) ?? 0) > 0;
  };
  const podControllers = new Set<string>(podSecurityTemplateResources);
  const podSecurityMayAct = (a: ScopeAttributes): boolean => {
    if (!podControllers.has(scopeResource(a.resource))) return true;
    const config = sources.podSecurity?.();
    if (!config || config.exemptNamespaces.includes(a.namespace)) return true;
    // No user: the gateway's own write, made as system:apiserver.
    if (
      config.exemptUsernames.length > 0 &&
      (!a.user || config.exemptUsernames.includes(a.user.name))
    )
      return true;
    const namespaces = sources.namespaces;
    if (!namespaces?.synced) return true;
    const namespace = namespaces.get(a.namespace);
    if (!namespace) return true;
    const labels = field(field(namespace, 'metadata'), 'labels');
    const privileged = (mode: 'audit' | 'warn', byDefault: string): boolean => {
      const level = field(labels, `${podSecurityLabelPrefix}${mode}`);
      return (level ?? byDefault) === 'privileged';
    };
    return !(
      privileged('audit', config.defaultAuditLevel) && privileged('warn', config.defaultWarnLevel)
    );
  };
  return {
    mayAct(source, a) {
      switch (source) {
        case 'mutatingWebhooks':
          return webhooksMayAct(sources.mutatingWebhookConfigurations, a);
        case 'validatingWebhooks':
          return webhooksMayAct(sources.validatingWebhookConfigurations, a);
        case 'validatingPolicies':
          return policyMayAct(a);
        case 'resourceQuotas':
          return quotaMayAct(a);
        case 'podSecurity':
          return podSecurityMayAct(a);
      }
    },
  };
}

/**
 * The sources from the gateway's watch caches of the kinds the registry serves, and a start
 * that starts those caches (with the gateway; not required for readiness: until a cache is
 * synced its plugins keep the calls).
 */
export function cachedScopeSources(
  registry: ResourceRegistry,
  cachers: Cachers,
  service: { readonly quotaLimitedResources: boolean; readonly podSecurity?: PodSecurityScope }
): { sources: DynamicScopeSources; start: () => void } {
  const started: (() => void)[] = [];
  const cache = (group: string, resource: string): Informer | undefined => {
    const def = registry.all().find((d) => d.group === group && d.resource === resource);
    if (!def) return undefined;
    const cacher = cachers.for(def);
    started.push(() => void cacher.start());
    return cacher.cache;
  };
  const ar = 'admissionregistration.orch.io';
  const sources: DynamicScopeSources = {
    quotaLimitedResources: () => service.quotaLimitedResources,
    podSecurity: () => service.podSecurity,
  };
  const set = <K extends keyof DynamicScopeSources>(
    k: K,
    v: DynamicScopeSources[K] | undefined
  ): void => {
    if (v) sources[k] = v;
  };
  set('mutatingWebhookConfigurations', cache(ar, 'mutatingwebhookconfigurations'));
  set('validatingWebhookConfigurations', cache(ar, 'validatingwebhookconfigurations'));
  set('validatingAdmissionPolicies', cache(ar, 'validatingadmissionpolicies'));
  set('validatingAdmissionPolicyBindings', cache(ar, 'validatingadmissionpolicybindings'));
  set('resourceQuotas', cache('', 'resourcequotas'));
  set('namespaces', cache('', 'namespaces'));
  return { sources, start: () => started.forEach((s) => s()) };
}
