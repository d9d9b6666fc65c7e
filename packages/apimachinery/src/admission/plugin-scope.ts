// What each plugin of the admission service can act on, whatever the cluster holds: the
// resources (group/resource, core resources bare) a plugin may change or refuse a write of, in
// any phase. A write of any other resource passes the plugin unchanged and admitted. The
// admission service reads it (a plugin out of scope is idle in the validating phase without
// being asked) and the gateway reads it (a call whose every plugin is out of scope is not
// made); a test runs each plugin over the realistic objects of every resource outside its
// scope and checks it neither changes nor refuses one, so the list cannot drift from the code.
//
// - `none`: never acts (AlwaysAdmit).
// - `any`: may act on any resource (AlwaysDeny; NodeRestriction, which decides by the user).
// - `dynamic`: what it acts on depends on objects in the cluster (webhook and policy
//   configurations, ResourceQuotas): the gateway tells from its caches of them
//   (services/gateway/src/admission/service/dynamic-scope.ts).
//
// A plugin with a static scope may also have a dynamic source (dynamicScopeSources), which
// narrows it further: PodSecurity, on the pod controllers, only warns and audits, so it cannot
// act where a namespace's warn and audit levels are privileged (from the namespaces' labels).
import type { AdmissionServicePluginName } from './plugins.js';

export type PluginScope = 'none' | 'any' | 'dynamic' | readonly string[];

const pods = ['pods'] as const;

/**
 * The pod controllers whose pod templates PodSecurity checks (for warnings and audit
 * annotations only; upstream's PodSpecExtractor's resources).
 */
export const podSecurityTemplateResources = [
  'podtemplates',
  'replicationcontrollers',
  'apps/replicasets',
  'apps/deployments',
  'apps/statefulsets',
  'apps/daemonsets',
  'batch/jobs',
  'batch/cronjobs',
] as const;

/**
 * What of PodSecurity's configuration decides whether it can act on a pod controller's write
 * (the admission service's ListPlugins tells it): the default audit and warn levels, and the
 * exempt namespaces and users (an exempt write gets an audit annotation).
 */
export interface PodSecurityScope {
  defaultAuditLevel: string;
  defaultWarnLevel: string;
  exemptNamespaces: readonly string[];
  exemptUsernames: readonly string[];
}

/** PodSecurity's namespace labels: `<prefix><mode>`, `<prefix><mode>-version` (upstream's pod-security.kubernetes.io/). */
export const podSecurityLabelPrefix = 'pod-security.orch.io/';

/** Each admission-service plugin's scope (the list's order). */
export const servicePluginScopes: Readonly<Record<AdmissionServicePluginName, PluginScope>> = {
  AlwaysAdmit: 'none',
  LimitPodHardAntiAffinityTopology: pods,
  LimitRanger: ['pods', 'persistentvolumeclaims'],
  ServiceAccount: pods,
  NodeRestriction: 'any',
  TaintNodesByCondition: ['nodes'],
  AlwaysPullImages: pods,
  ImagePolicyWebhook: pods,
  PodSecurity: ['pods', 'namespaces', ...podSecurityTemplateResources],
  SecurityContextDeny: pods,
  PodNodeSelector: pods,
  Priority: ['pods', 'scheduling.orch.io/priorityclasses'],
  DefaultTolerationSeconds: pods,
  PodTolerationRestriction: pods,
  EventRateLimit: ['events', 'events.orch.io/events'],
  ExtendedResourceToleration: pods,
  DefaultStorageClass: ['persistentvolumeclaims'],
  StorageObjectInUseProtection: ['persistentvolumes', 'persistentvolumeclaims'],
  PersistentVolumeClaimResize: ['persistentvolumeclaims'],
  RuntimeClass: pods,
  DefaultIngressClass: ['networking.orch.io/ingresses'],
  DenyServiceExternalIPs: ['services'],
  MutatingAdmissionWebhook: 'dynamic',
  ValidatingAdmissionPolicy: 'dynamic',
  ValidatingAdmissionWebhook: 'dynamic',
  ResourceQuota: 'dynamic',
  AlwaysDeny: 'any',
};

/** What the scope of a `dynamic` plugin depends on: the objects the gateway watches for it. */
export type DynamicScopeSource =
  | 'mutatingWebhooks'
  | 'validatingWebhooks'
  | 'validatingPolicies'
  | 'resourceQuotas'
  | 'podSecurity';

/**
 * The source of each `dynamic` plugin's scope (one without an entry always may act), and of the
 * narrowing of a static one (asked only for a write within its static scope).
 */
export const dynamicScopeSources: Readonly<
  Partial<Record<AdmissionServicePluginName, DynamicScopeSource>>
> = {
  MutatingAdmissionWebhook: 'mutatingWebhooks',
  ValidatingAdmissionPolicy: 'validatingPolicies',
  ValidatingAdmissionWebhook: 'validatingWebhooks',
  ResourceQuota: 'resourceQuotas',
  PodSecurity: 'podSecurity',
};

/** A resource as the scopes spell it: `group/resource`, core resources bare. */
export const scopeResource = (r: { group: string; resource: string }): string =>
  r.group === '' ? r.resource : `${r.group}/${r.resource}`;

/**
 * Could plugin `name` act on a write of `resource` (any subresource, operation or phase)?
 * False only when its scope rules it out; `dynamic` and `any` plugins may always act (by their
 * static scope).
 */
export function mayActOn(
  name: AdmissionServicePluginName,
  resource: { group: string; resource: string }
): boolean {
  const scope = servicePluginScopes[name];
  if (scope === 'none') return false;
  if (scope === 'any' || scope === 'dynamic') return true;
  return scope.includes(scopeResource(resource));
}
