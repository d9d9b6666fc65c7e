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
 * - OwnerReferencesPermissionEnforcement: upstream's (plugin/pkg/admission/gc), in the gateway
 *   since it asks the authorizer; off by default as upstream.
 * - AlwaysPullImages, ImagePolicyWebhook, MutatingAdmissionWebhook, ValidatingAdmissionPolicy,
 *   ValidatingAdmissionWebhook: upstream's, in the admission service.
 */
export const allOrderedPlugins = [
  'AlwaysAdmit',
  'NamespaceLifecycle',
  'RBACEscalationPrevention',
  'AlwaysPullImages',
  'ImagePolicyWebhook',
  'OwnerReferencesPermissionEnforcement',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'AlwaysDeny',
] as const;

export type PluginName = (typeof allOrderedPlugins)[number];

/** The plugins that run in the admission service (`--admission-servers`): its contract's list. */
export const servicePluginNames = admissionServicePluginNames satisfies readonly PluginName[];

export type ServicePluginName = AdmissionServicePluginName;

/** The plugins of the gateway itself. */
export type GatewayPluginName = Exclude<PluginName, ServicePluginName>;

const servicePlugins = new Set<string>(servicePluginNames);

export function isServicePlugin(name: string): name is ServicePluginName {
  return servicePlugins.has(name);
}

/**
 * Plugins on when no flag says otherwise (upstream's DefaultOffAdmissionPlugins is the
 * complement): the namespace and RBAC checks, the webhooks and the validating policies.
 */
export const defaultOnPlugins: readonly PluginName[] = [
  'NamespaceLifecycle',
  'RBACEscalationPrevention',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
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
  readonly plugins: readonly AdmissionPlugin[];

  constructor(plugins: readonly AdmissionPlugin[]) {
    this.plugins = plugins;
  }

  /** Does any plugin handle the operation? */
  handles(operation: Operation): boolean {
    return this.plugins.some((p) => p.handles(operation));
  }

  async admit(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) {
      if (p.admit && p.handles(attrs.operation)) await p.admit(attrs);
    }
  }

  async validate(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) {
      if (p.validate && p.handles(attrs.operation)) await p.validate(attrs);
    }
  }
}

/** How to build each in-gateway plugin; the server supplies the dependencies. */
export type PluginFactories = Record<GatewayPluginName, () => AdmissionPlugin>;

/**
 * How to build the chain member of a run of consecutive enabled service plugins: one call to
 * the admission service per phase, naming them in order (admission/service/).
 */
export type ServicePluginsFactory = (names: ServicePluginName[]) => AdmissionPlugin;

/**
 * The chain of the enabled plugins, in the fixed order whatever the order of `enabled`; each
 * run of consecutive service plugins is one member built by `service` (which is required when
 * any service plugin is enabled).
 */
export function newAdmissionChain(
  factories: PluginFactories,
  enabled: readonly PluginName[],
  service?: ServicePluginsFactory
): AdmissionChain {
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
  for (const name of allOrderedPlugins) {
    if (!enabled.includes(name)) continue;
    if (isServicePlugin(name)) {
      run.push(name);
    } else {
      flush();
      members.push(factories[name]());
    }
  }
  flush();
  return new AdmissionChain(members);
}
