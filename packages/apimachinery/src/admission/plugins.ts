// The one list of admission plugins (kube-apiserver's options/plugins.go: AllOrderedPlugins,
// DefaultOffAdmissionPlugins, and where each plugin runs here): their names as the admission
// flags spell them, the order they run in, which are on by default, the process that runs each
// and the phases each takes part in. The gateway's flags and chain, the gRPC contract and the
// registries of the admission and certificates services all derive from it; tests check each
// registration file against it.

/**
 * The process that runs a plugin: the gateway itself, the admission service
 * (--admission-servers) or the certificates service (--certificates-servers).
 */
export type Placement = 'gateway' | 'admission' | 'certificates';

/** The phases a plugin takes part in (upstream's MutationInterface, ValidationInterface). */
export type PluginRole = 'mutating' | 'validating';

export interface PluginSpec {
  readonly name: string;
  readonly placement: Placement;
  /** On unless --disable-admission-plugins names it (upstream: not in DefaultOffAdmissionPlugins). */
  readonly defaultOn: boolean;
  readonly roles: readonly PluginRole[];
  /** Upstream's deprecated plugins: a gateway that enables one warns at start. */
  readonly deprecated?: boolean;
}

const both = ['mutating', 'validating'] as const;
const mutating = ['mutating'] as const;
const validating = ['validating'] as const;

/**
 * Every plugin, in the order they run (upstream's AllOrderedPlugins, for the plugins that exist
 * here). Where a plugin runs:
 *
 * - AlwaysAdmit, AlwaysDeny: upstream's deprecated plugins, first and last as upstream's.
 * - RBACEscalationPrevention: upstream checks escalation in the RBAC registry strategies
 *   (pkg/registry/rbac/.../policybased); here it is a validating plugin of the gateway so that it
 *   reads the write's attributes like any other check. The name is ours.
 * - NamespaceAutoProvision, NamespaceLifecycle, NamespaceExists: in the gateway, on its
 *   namespace cache. OwnerReferencesPermissionEnforcement: in the gateway, which asks the
 *   authorizer.
 * - CertificateApproval, CertificateSigning, CertificateSubjectRestriction: in the certificates
 *   service, one call with its check of the request.
 * - The others: in the admission service, where the informers, the configuration file and the
 *   webhook clients are; consecutive enabled ones form one run, one gRPC call per phase.
 *
 * Webhooks, policies, ResourceQuota and AlwaysDeny go last, as upstream's: the validating
 * webhooks and policies see the object every mutating plugin has finished, and quota charges
 * only a write every other plugin admitted.
 */
export const admissionPlugins = [
  { name: 'AlwaysAdmit', placement: 'admission', defaultOn: false, roles: both, deprecated: true },
  { name: 'NamespaceAutoProvision', placement: 'gateway', defaultOn: false, roles: mutating },
  { name: 'NamespaceLifecycle', placement: 'gateway', defaultOn: true, roles: validating },
  { name: 'NamespaceExists', placement: 'gateway', defaultOn: false, roles: validating },
  { name: 'RBACEscalationPrevention', placement: 'gateway', defaultOn: true, roles: validating },
  {
    name: 'SecurityContextDeny',
    placement: 'admission',
    defaultOn: false,
    roles: validating,
    deprecated: true,
  },
  {
    name: 'LimitPodHardAntiAffinityTopology',
    placement: 'admission',
    defaultOn: false,
    roles: validating,
  },
  { name: 'LimitRanger', placement: 'admission', defaultOn: true, roles: both },
  // Needs the service account controller (a `default` account in every namespace); a suite
  // started without the controllers turns it off (@orch/suite describeSuite).
  { name: 'ServiceAccount', placement: 'admission', defaultOn: true, roles: both },
  { name: 'NodeRestriction', placement: 'admission', defaultOn: false, roles: validating },
  { name: 'TaintNodesByCondition', placement: 'admission', defaultOn: true, roles: mutating },
  { name: 'AlwaysPullImages', placement: 'admission', defaultOn: false, roles: both },
  { name: 'ImagePolicyWebhook', placement: 'admission', defaultOn: false, roles: validating },
  { name: 'PodSecurity', placement: 'admission', defaultOn: true, roles: validating },
  { name: 'PodNodeSelector', placement: 'admission', defaultOn: false, roles: both },
  { name: 'Priority', placement: 'admission', defaultOn: true, roles: both },
  { name: 'DefaultTolerationSeconds', placement: 'admission', defaultOn: true, roles: mutating },
  { name: 'PodTolerationRestriction', placement: 'admission', defaultOn: false, roles: both },
  { name: 'EventRateLimit', placement: 'admission', defaultOn: false, roles: validating },
  {
    name: 'ExtendedResourceToleration',
    placement: 'admission',
    defaultOn: false,
    roles: mutating,
  },
  { name: 'DefaultStorageClass', placement: 'admission', defaultOn: true, roles: mutating },
  {
    name: 'StorageObjectInUseProtection',
    placement: 'admission',
    defaultOn: true,
    roles: mutating,
  },
  {
    name: 'OwnerReferencesPermissionEnforcement',
    placement: 'gateway',
    defaultOn: false,
    roles: validating,
  },
  {
    name: 'PersistentVolumeClaimResize',
    placement: 'admission',
    defaultOn: true,
    roles: validating,
  },
  { name: 'RuntimeClass', placement: 'admission', defaultOn: true, roles: both },
  { name: 'CertificateApproval', placement: 'certificates', defaultOn: true, roles: validating },
  { name: 'CertificateSigning', placement: 'certificates', defaultOn: true, roles: validating },
  {
    name: 'CertificateSubjectRestriction',
    placement: 'certificates',
    defaultOn: true,
    roles: validating,
  },
  { name: 'DefaultIngressClass', placement: 'admission', defaultOn: true, roles: mutating },
  { name: 'DenyServiceExternalIPs', placement: 'admission', defaultOn: false, roles: validating },
  { name: 'MutatingAdmissionWebhook', placement: 'admission', defaultOn: true, roles: mutating },
  {
    name: 'ValidatingAdmissionPolicy',
    placement: 'admission',
    defaultOn: true,
    roles: validating,
  },
  {
    name: 'ValidatingAdmissionWebhook',
    placement: 'admission',
    defaultOn: true,
    roles: validating,
  },
  { name: 'ResourceQuota', placement: 'admission', defaultOn: true, roles: validating },
  { name: 'AlwaysDeny', placement: 'admission', defaultOn: false, roles: both, deprecated: true },
] as const satisfies readonly PluginSpec[];

type Spec = (typeof admissionPlugins)[number];

/** A plugin's name as the admission flags spell it. */
export type PluginName = Spec['name'];

/** The names of the plugins a process runs. */
export type PluginNameIn<P extends Placement> = Extract<Spec, { placement: P }>['name'];

export type GatewayPluginName = PluginNameIn<'gateway'>;
export type AdmissionServicePluginName = PluginNameIn<'admission'>;
export type CertificatePluginName = PluginNameIn<'certificates'>;

/** Every plugin's name, in the order they run (upstream's AllOrderedPlugins). */
export const allOrderedPlugins: readonly PluginName[] = admissionPlugins.map((p) => p.name);

/** Plugins on when no flag says otherwise. */
export const defaultOnPlugins: readonly PluginName[] = admissionPlugins
  .filter((p) => p.defaultOn)
  .map((p) => p.name);

/** Plugins off unless enabled (upstream's DefaultOffAdmissionPlugins). */
export const defaultOffPlugins: readonly PluginName[] = admissionPlugins
  .filter((p) => !p.defaultOn)
  .map((p) => p.name);

const byName = new Map<string, PluginSpec>(admissionPlugins.map((p) => [p.name, p]));

export function isPluginName(name: string): name is PluginName {
  return byName.has(name);
}

/** The list's entry of a plugin. */
export function pluginSpec(name: PluginName): PluginSpec {
  return byName.get(name)!;
}

/** The names a process runs, in order. */
export function pluginsPlacedIn<P extends Placement>(placement: P): PluginNameIn<P>[] {
  return admissionPlugins
    .filter((p) => p.placement === placement)
    .map((p) => p.name as PluginNameIn<P>);
}

/** Does `placement` run the plugin `name`? (False for a name that is not in the list.) */
export function isPlacedIn<P extends Placement>(
  name: string,
  placement: P
): name is PluginNameIn<P> {
  return byName.get(name)?.placement === placement;
}

/** Upstream's deprecated plugins among `names`. */
export function deprecatedPlugins(names: readonly PluginName[]): PluginName[] {
  return names.filter((n) => byName.get(n)?.deprecated === true);
}

/**
 * The enabled plugins from --enable-admission-plugins / --disable-admission-plugins (k8s
 * AdmissionOptions.enabledPluginNames): the default-on set, plus the enabled, minus the
 * disabled, in the fixed order. Errors name unknown plugins and plugins in both lists.
 */
export function enabledPluginNames(
  enable: readonly string[],
  disable: readonly string[]
): { names: PluginName[]; errors: string[] } {
  const errors: string[] = [];
  for (const [flag, list] of [
    ['enable-admission-plugins', enable],
    ['disable-admission-plugins', disable],
  ] as const) {
    for (const name of list) {
      if (!isPluginName(name)) {
        errors.push(
          `--${flag}: admission plugin ${JSON.stringify(name)} is unknown (known: ${allOrderedPlugins.join(', ')})`
        );
      }
    }
  }
  const both = enable.filter((n) => disable.includes(n));
  if (both.length > 0) {
    errors.push(
      `${both.join(', ')} in both --enable-admission-plugins and --disable-admission-plugins`
    );
  }
  const on = new Set<string>([...defaultOnPlugins, ...enable]);
  for (const n of disable) on.delete(n);
  return { names: allOrderedPlugins.filter((n) => on.has(n)), errors };
}

/**
 * What a service serves against what the list places there for the enabled plugins: `missing`
 * are enabled plugins the list places in the service that it does not serve, `extra` plugins it
 * serves that the list does not place there (a service of another version). Both empty: match.
 */
export function servedPluginsMismatch(
  placement: Exclude<Placement, 'gateway'>,
  enabled: readonly PluginName[],
  served: readonly string[]
): { missing: PluginName[]; extra: string[] } {
  const servedSet = new Set(served);
  return {
    missing: enabled.filter((n) => isPlacedIn(n, placement) && !servedSet.has(n)),
    extra: served.filter((n) => !isPlacedIn(n, placement)),
  };
}
