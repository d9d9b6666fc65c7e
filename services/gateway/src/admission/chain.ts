// The one place that owns the order of admission (k8s chainAdmissionHandler and the plugin
// order of AllOrderedPlugins): the chain is built from the enabled plugins in the fixed order
// below, runs every plugin's admit in that order (mutating phase), then every plugin's validate
// in that order (validating phase). The first denial fails the request; later plugins do not run.
// Plugins of the admission service are members too: each run of consecutive enabled service
// plugins is one member (admission/service/), one gRPC call per phase naming them in order.
import { admissionServicePluginNames } from '@orch/apimachinery/grpc';
import type { AdmissionServicePluginName } from '@orch/apimachinery/grpc';
import type { Admission, AdmissionAttributes, AdmissionPlugin, Operation } from './interfaces.js';

/**
 * Every plugin, in the order they run (upstream's AllOrderedPlugins, for the plugins that exist
 * here). Those of {@link servicePluginNames} run in the admission service; the others here.
 *
 * - AlwaysAdmit, AlwaysDeny: upstream's deprecated plugins (first and last, as upstream's).
 * - NamespaceLifecycle: upstream's plugin of that name.
 * - RBACEscalationPrevention: upstream does not do this in admission but in the RBAC registry
 *   strategies (pkg/registry/rbac/.../policybased, validation.ConfirmNoEscalation). Here it is a
 *   validating plugin so that it reads the write's attributes like any other check instead of
 *   reaching back into the HTTP request; the name is ours, not upstream's.
 * - NamespaceAutoProvision, NamespaceExists: upstream's, in the gateway beside
 *   NamespaceLifecycle (they read its namespace cache).
 * - OwnerReferencesPermissionEnforcement: upstream's (plugin/pkg/admission/gc), in the gateway
 *   since it asks the authorizer; off by default as upstream.
 * - AlwaysPullImages, ImagePolicyWebhook, MutatingAdmissionWebhook, ValidatingAdmissionPolicy,
 *   ValidatingAdmissionWebhook: upstream's, in the admission service.
 * - CertificateApproval, CertificateSigning, CertificateSubjectRestriction: upstream's, in the
 *   certificates service (--certificates-servers), one member with the request check.
 * - LimitRanger, ResourceQuota: upstream's, in the admission service (its informers read the
 *   namespace's LimitRanges and quotas; ResourceQuota charges a quota through its storage client).
 * - LimitPodHardAntiAffinityTopology, ServiceAccount, NodeRestriction, TaintNodesByCondition,
 *   PodSecurity, PodNodeSelector, DefaultTolerationSeconds, PodTolerationRestriction,
 *   EventRateLimit, ExtendedResourceToleration, DenyServiceExternalIPs: upstream's built-in
 *   plugins, in the admission service (those with configuration or informers need it; the
 *   others sit between them in upstream's order, and one run of service plugins is one call).
 * - Priority, DefaultStorageClass, StorageObjectInUseProtection, PersistentVolumeClaimResize,
 *   RuntimeClass, DefaultIngressClass: upstream's, in the admission service (its informers hold
 *   the PriorityClasses, StorageClasses, RuntimeClasses and IngressClasses they read).
 */
export const allOrderedPlugins = [
  'AlwaysAdmit',
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'NamespaceExists',
  'RBACEscalationPrevention',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'AlwaysPullImages',
  'ImagePolicyWebhook',
  'PodSecurity',
  'PodNodeSelector',
  'Priority',
  'DefaultTolerationSeconds',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'DenyServiceExternalIPs',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'AlwaysDeny',
] as const;

export type PluginName = (typeof allOrderedPlugins)[number];

/** The plugins that run in the admission service (`--admission-servers`): its contract's list. */
export const servicePluginNames = admissionServicePluginNames satisfies readonly PluginName[];

export type ServicePluginName = AdmissionServicePluginName;

/** The plugins of the certificates service (`--certificates-servers`), in upstream's order. */
export const certificatePluginNames = [
  'CertificateApproval',
  'CertificateSigning',
  'CertificateSubjectRestriction',
] as const satisfies readonly PluginName[];

export type CertificatePluginName = (typeof certificatePluginNames)[number];

const certificatePlugins = new Set<string>(certificatePluginNames);

export function isCertificatePlugin(name: string): name is CertificatePluginName {
  return certificatePlugins.has(name);
}

/** The plugins of the gateway itself. */
export type GatewayPluginName = Exclude<PluginName, ServicePluginName | CertificatePluginName>;

const servicePlugins = new Set<string>(servicePluginNames);

export function isServicePlugin(name: string): name is ServicePluginName {
  return servicePlugins.has(name);
}

/**
 * Plugins on when no flag says otherwise (upstream's DefaultOffAdmissionPlugins is the
 * complement): the namespace and RBAC checks, service accounts, the node taint, pod security,
 * priority and default tolerations, the storage and ingress class defaults, volume protection
 * and resize, runtime classes, the certificate checks, the webhooks and the validating policies.
 * ServiceAccount needs the service account controller (a `default` account in every namespace);
 * a suite started without the controllers turns it off (@orch/suite describeSuite).
 */
export const defaultOnPlugins: readonly PluginName[] = [
  'NamespaceLifecycle',
  'RBACEscalationPrevention',
  'LimitRanger',
  'ServiceAccount',
  'TaintNodesByCondition',
  'PodSecurity',
  'Priority',
  'DefaultTolerationSeconds',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
];

const known = new Set<string>(allOrderedPlugins);

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
      if (!known.has(name)) {
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

/** The chain over plugins already in order (k8s chainAdmissionHandler). */
export class AdmissionChain implements Admission {
  /** The members for every write but those of CertificateSigningRequests. */
  readonly plugins: readonly AdmissionPlugin[];
  /** The members for writes of CertificateSigningRequests: the certificates member among them. */
  readonly csrPlugins: readonly AdmissionPlugin[];

  constructor(
    plugins: readonly AdmissionPlugin[],
    csrPlugins: readonly AdmissionPlugin[] = plugins
  ) {
    this.plugins = plugins;
    this.csrPlugins = csrPlugins;
  }

  /** The members a write goes through. */
  pluginsFor(attrs: Pick<AdmissionAttributes, 'resource'>): readonly AdmissionPlugin[] {
    return isCertificateSigningRequests(attrs) ? this.csrPlugins : this.plugins;
  }

  /** Does any plugin handle the operation? */
  handles(operation: Operation): boolean {
    return [...this.plugins, ...this.csrPlugins].some((p) => p.handles(operation));
  }

  async admit(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.pluginsFor(attrs)) {
      if (p.admit && p.handles(attrs.operation)) await p.admit(attrs);
    }
  }

  async validate(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.pluginsFor(attrs)) {
      if (p.validate && p.handles(attrs.operation)) await p.validate(attrs);
    }
  }
}

/** Whether a write is one of a CertificateSigningRequest (or its subresources). */
export function isCertificateSigningRequests(
  attrs: Pick<AdmissionAttributes, 'resource'>
): boolean {
  return (
    attrs.resource.group === 'certificates.orch.io' &&
    attrs.resource.resource === 'certificatesigningrequests'
  );
}

/** How to build each in-gateway plugin; the server supplies the dependencies. */
export type PluginFactories = Record<GatewayPluginName, () => AdmissionPlugin>;

/**
 * How to build the chain member of a run of consecutive enabled service plugins: one call to
 * the admission service per phase, naming them in order (admission/service/).
 */
export type ServicePluginsFactory = (names: ServicePluginName[]) => AdmissionPlugin;

/**
 * How to build the member of the certificates service: one call per CSR write naming the
 * enabled certificate plugins (possibly none: the service still checks the request).
 */
export type CertificatePluginsFactory = (names: CertificatePluginName[]) => AdmissionPlugin;

/**
 * The chain of the enabled plugins, in the fixed order whatever the order of `enabled`; each
 * run of consecutive service plugins is one member built by `service` (which is required when
 * any service plugin is enabled). When `certificates` is given, writes of
 * CertificateSigningRequests get its member at the place of the certificate plugins, naming the
 * enabled ones, even when none is (the request check); other writes, which it would not touch,
 * go through the chain without it, so that it does not split a run of service plugins into two
 * calls.
 */
export function newAdmissionChain(
  factories: PluginFactories,
  enabled: readonly PluginName[],
  service?: ServicePluginsFactory,
  certificates?: CertificatePluginsFactory
): AdmissionChain {
  const gateway = new Map<string, AdmissionPlugin>();
  const build = (withCertificates: boolean): AdmissionPlugin[] => {
    const members: AdmissionPlugin[] = [];
    let run: ServicePluginName[] = [];
    const flush = (): void => {
      if (run.length === 0) return;
      if (!service) {
        throw new Error(
          `admission plugins ${run.join(', ')} run in the admission service, and none is configured`
        );
      }
      members.push(service(run));
      run = [];
    };
    let certificatesPlaced = false;
    for (const name of allOrderedPlugins) {
      if (isCertificatePlugin(name)) {
        if (certificatesPlaced || !certificates || !withCertificates) continue;
        flush();
        members.push(certificates(certificatePluginNames.filter((n) => enabled.includes(n))));
        certificatesPlaced = true;
        continue;
      }
      if (!enabled.includes(name)) continue;
      if (isServicePlugin(name)) {
        run.push(name);
      } else {
        flush();
        // one instance of each gateway plugin, shared by both chains
        let plugin = gateway.get(name);
        if (!plugin) gateway.set(name, (plugin = factories[name]()));
        members.push(plugin);
      }
    }
    flush();
    return members;
  };
  const plugins = build(false);
  return new AdmissionChain(plugins, certificates ? build(true) : plugins);
}
