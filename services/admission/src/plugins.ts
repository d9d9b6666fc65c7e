// The service's plugins (kube-apiserver's RegisterAllAdmissionPlugins, for the plugins the one
// list of `@orch/apimachinery/admission` places in the admission service): each plugin module
// exports its name and registers its factory; this file registers them all and nothing else
// names a plugin.
import { Plugins, allOrderedPlugins } from '@orch/apimachinery/admission';
import * as always from './always/always.js';
import * as alwaysPullImages from './always-pull-images/always-pull-images.js';
import * as defaultIngressClass from './default-ingress-class/default-ingress-class.js';
import * as defaultStorageClass from './default-storage-class/default-storage-class.js';
import * as defaultTolerationSeconds from './default-toleration-seconds/default-toleration-seconds.js';
import * as denyServiceExternalIPs from './deny-service-external-ips/deny-service-external-ips.js';
import * as eventRateLimit from './event-rate-limit/event-rate-limit.js';
import * as extendedResourceToleration from './extended-resource-toleration/extended-resource-toleration.js';
import * as imagePolicyWebhook from './imagepolicy/image-policy-webhook.js';
import type {
  PluginDeps,
  PluginFactory,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from './interfaces.js';
import * as limitPodHardAntiAffinityTopology from './limit-pod-hard-anti-affinity-topology/limit-pod-hard-anti-affinity-topology.js';
import * as limitRanger from './limit-ranger/limit-ranger.js';
import * as nodeRestriction from './node-restriction/node-restriction.js';
import * as persistentVolumeClaimResize from './persistent-volume-claim-resize/persistent-volume-claim-resize.js';
import * as podNodeSelector from './pod-node-selector/pod-node-selector.js';
import * as podSecurity from './pod-security/pod-security.js';
import * as podTolerationRestriction from './pod-toleration-restriction/pod-toleration-restriction.js';
import * as validatingAdmissionPolicy from './policy/validating-admission-policy.js';
import * as priority from './priority/priority.js';
import * as resourceQuota from './resource-quota/resource-quota.js';
import * as runtimeClass from './runtime-class/runtime-class.js';
import * as securityContextDeny from './security-context-deny/security-context-deny.js';
import * as serviceAccount from './service-account/service-account.js';
import * as storageObjectInUseProtection from './storage-object-in-use-protection/storage-object-in-use-protection.js';
import * as taintNodesByCondition from './taint-nodes-by-condition/taint-nodes-by-condition.js';
import * as mutatingAdmissionWebhook from './webhook/mutating-admission-webhook.js';
import * as validatingAdmissionWebhook from './webhook/validating-admission-webhook.js';

export type { PluginFactory };

/** Registers every plugin of the service (upstream's RegisterAllAdmissionPlugins). */
export function registerAllAdmissionPlugins(plugins: ServicePlugins): void {
  always.register(plugins);
  alwaysPullImages.register(plugins);
  defaultIngressClass.register(plugins);
  defaultStorageClass.register(plugins);
  defaultTolerationSeconds.register(plugins);
  denyServiceExternalIPs.register(plugins);
  eventRateLimit.register(plugins);
  extendedResourceToleration.register(plugins);
  imagePolicyWebhook.register(plugins);
  limitPodHardAntiAffinityTopology.register(plugins);
  limitRanger.register(plugins);
  mutatingAdmissionWebhook.register(plugins);
  nodeRestriction.register(plugins);
  persistentVolumeClaimResize.register(plugins);
  podNodeSelector.register(plugins);
  podSecurity.register(plugins);
  podTolerationRestriction.register(plugins);
  priority.register(plugins);
  resourceQuota.register(plugins);
  runtimeClass.register(plugins);
  securityContextDeny.register(plugins);
  serviceAccount.register(plugins);
  storageObjectInUseProtection.register(plugins);
  taintNodesByCondition.register(plugins);
  validatingAdmissionPolicy.register(plugins);
  validatingAdmissionWebhook.register(plugins);
}

/** A registry of every plugin of the service. */
export function newServicePlugins(): ServicePlugins {
  const plugins: ServicePlugins = new Plugins('admission');
  registerAllAdmissionPlugins(plugins);
  return plugins;
}

export type PluginFactories = Partial<Record<ServicePluginName, PluginFactory>>;

const builtin = newServicePlugins();

/** Every plugin of the service, by name, in the order they run. */
export const builtinPluginFactories: PluginFactories = Object.fromEntries(
  builtin.registered().map((name) => [name, builtin.factory(name)])
);

/**
 * Plugins that cannot run without a configuration. Upstream refuses to start when one is
 * enabled without it; here the gateways enable plugins and this service cannot know which, so
 * such a plugin is built only when --admission-control-config-file configures it, and a gateway
 * that asks for it otherwise gets an error saying so (the write fails closed).
 */
export const pluginsNeedingConfiguration: ReadonlySet<string> = new Set(
  builtin.registered().filter((name) => builtin.needsConfiguration(name))
);

/** The plugins `factories` registers, in the order they run (what the service serves). */
export function servedPlugins(factories: PluginFactories): ServicePluginName[] {
  return allOrderedPlugins.filter(
    (n): n is ServicePluginName => factories[n as ServicePluginName] !== undefined
  );
}

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
    if (pluginsNeedingConfiguration.has(name) && !configs.has(name)) continue;
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
