// The service's plugins by name (k8s admission.Plugins, RegisterAllAdmissionPlugins): a factory
// per name, given the PluginDeps. Webhook, policy and image-policy factories are registered by
// whoever builds the server (see README); this file registers the plugins of this folder.
import { newAlwaysAdmit, newAlwaysDeny } from './always/always.js';
import { newAlwaysPullImages } from './always-pull-images/always-pull-images.js';
import type { PluginDeps, ServicePlugin, ServicePluginName } from './interfaces.js';

export type PluginFactory = (deps: PluginDeps) => ServicePlugin;

export type PluginFactories = Partial<Record<ServicePluginName, PluginFactory>>;

/** AlwaysAdmit, AlwaysDeny and AlwaysPullImages. */
export const builtinPluginFactories: PluginFactories = {
  AlwaysAdmit: newAlwaysAdmit,
  AlwaysDeny: newAlwaysDeny,
  AlwaysPullImages: newAlwaysPullImages,
};

/** What a factory is given besides its own configuration. */
export type SharedPluginDeps = Omit<PluginDeps, 'config'>;

/**
 * Builds every registered plugin (so a bad configuration fails the start, not a request),
 * each with its configuration from `configs`, and checks each names itself as registered.
 */
export function newPlugins(
  factories: PluginFactories,
  deps: SharedPluginDeps,
  configs: ReadonlyMap<string, unknown>
): Map<string, ServicePlugin> {
  const out = new Map<string, ServicePlugin>();
  for (const [name, factory] of Object.entries(factories)) {
    if (!factory) continue;
    const plugin = factory({
      ...deps,
      log: deps.log.child({ plugin: name }),
      config: configs.get(name),
    });
    if (plugin.name !== name) {
      throw new Error(`the factory registered as ${name} built a plugin named ${plugin.name}`);
    }
    out.set(name, plugin);
  }
  for (const name of configs.keys()) {
    if (!factories[name as ServicePluginName]) {
      throw new Error(`configuration given for admission plugin ${name}, which is not registered`);
    }
  }
  return out;
}
