// The one place that owns the order of admission (k8s chainAdmissionHandler and the plugin
// order of AllOrderedPlugins): the chain is built from the enabled plugins in the fixed order
// below, runs every plugin's admit in that order (mutating phase), then every plugin's validate
// in that order (validating phase). The first denial fails the request; later plugins do not run.
import type { Admission, AdmissionAttributes, AdmissionPlugin, Operation } from './interfaces.js';

/**
 * Every in-gateway plugin, in the order they run (upstream's AllOrderedPlugins, for the plugins
 * that exist here).
 *
 * - NamespaceLifecycle: upstream's plugin of that name.
 * - RBACEscalationPrevention: upstream does not do this in admission but in the RBAC registry
 *   strategies (pkg/registry/rbac/.../policybased, validation.ConfirmNoEscalation). Here it is a
 *   validating plugin so that it reads the write's attributes like any other check instead of
 *   reaching back into the HTTP request; the name is ours, not upstream's.
 */
export const allOrderedPlugins = ['NamespaceLifecycle', 'RBACEscalationPrevention'] as const;

export type PluginName = (typeof allOrderedPlugins)[number];

/** Plugins on when no flag says otherwise: all of them. */
export const defaultOnPlugins: readonly PluginName[] = allOrderedPlugins;

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

/** How to build each plugin; the server supplies the dependencies. */
export type PluginFactories = Record<PluginName, () => AdmissionPlugin>;

/** The chain of the enabled plugins, in the fixed order whatever the order of `enabled`. */
export function newAdmissionChain(
  factories: PluginFactories,
  enabled: readonly PluginName[]
): AdmissionChain {
  return new AdmissionChain(
    allOrderedPlugins.filter((n) => enabled.includes(n)).map((n) => factories[n]())
  );
}
