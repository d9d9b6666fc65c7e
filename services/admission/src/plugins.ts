// The service's plugins by name (k8s admission.Plugins, RegisterAllAdmissionPlugins): a factory
// per name, given the PluginDeps.
import { newAlwaysAdmit, newAlwaysDeny } from './always/always.js';
import { newAlwaysPullImages } from './always-pull-images/always-pull-images.js';
import { newDefaultIngressClass } from './default-ingress-class/default-ingress-class.js';
import { newDefaultStorageClass } from './default-storage-class/default-storage-class.js';
import { newDefaultTolerationSeconds } from './default-toleration-seconds/default-toleration-seconds.js';
import { newDenyServiceExternalIPs } from './deny-service-external-ips/deny-service-external-ips.js';
import { newEventRateLimit } from './event-rate-limit/event-rate-limit.js';
import { newExtendedResourceToleration } from './extended-resource-toleration/extended-resource-toleration.js';
import { newImagePolicyWebhook } from './imagepolicy/index.js';
import type { PluginDeps, ServicePlugin, ServicePluginName } from './interfaces.js';
import { newLimitPodHardAntiAffinityTopology } from './limit-pod-hard-anti-affinity-topology/limit-pod-hard-anti-affinity-topology.js';
import { newLimitRanger } from './limit-ranger/index.js';
import { newNodeRestriction } from './node-restriction/node-restriction.js';
import { newPodNodeSelector } from './pod-node-selector/pod-node-selector.js';
import { newPodSecurity } from './pod-security/pod-security.js';
import { newPersistentVolumeClaimResize } from './persistent-volume-claim-resize/persistent-volume-claim-resize.js';
import { newPodTolerationRestriction } from './pod-toleration-restriction/pod-toleration-restriction.js';
import { newPriority } from './priority/priority.js';
import { newResourceQuota } from './resource-quota/index.js';
import { newRuntimeClass } from './runtime-class/runtime-class.js';
import { ValidatingAdmissionPolicy } from './policy/index.js';
import { newServiceAccount } from './service-account/service-account.js';
import { newStorageObjectInUseProtection } from './storage-object-in-use-protection/storage-object-in-use-protection.js';
import { newTaintNodesByCondition } from './taint-nodes-by-condition/taint-nodes-by-condition.js';
import { MutatingAdmissionWebhook, ValidatingAdmissionWebhook } from './webhook/index.js';

export type PluginFactory = (deps: PluginDeps) => ServicePlugin;

export type PluginFactories = Partial<Record<ServicePluginName, PluginFactory>>;

/** Every plugin of the service. */
export const builtinPluginFactories: PluginFactories = {
  AlwaysAdmit: newAlwaysAdmit,
  AlwaysDeny: newAlwaysDeny,
  AlwaysPullImages: newAlwaysPullImages,
  DefaultIngressClass: newDefaultIngressClass,
  DefaultStorageClass: newDefaultStorageClass,
  DefaultTolerationSeconds: newDefaultTolerationSeconds,
  DenyServiceExternalIPs: newDenyServiceExternalIPs,
  EventRateLimit: (deps) => newEventRateLimit(deps),
  ExtendedResourceToleration: newExtendedResourceToleration,
  ImagePolicyWebhook: (deps) => newImagePolicyWebhook(deps),
  LimitPodHardAntiAffinityTopology: newLimitPodHardAntiAffinityTopology,
  LimitRanger: newLimitRanger,
  MutatingAdmissionWebhook,
  NodeRestriction: newNodeRestriction,
  PersistentVolumeClaimResize: newPersistentVolumeClaimResize,
  PodNodeSelector: newPodNodeSelector,
  PodSecurity: newPodSecurity,
  PodTolerationRestriction: newPodTolerationRestriction,
  Priority: newPriority,
  ResourceQuota: newResourceQuota,
  RuntimeClass: newRuntimeClass,
  ServiceAccount: (deps) => newServiceAccount(deps),
  StorageObjectInUseProtection: newStorageObjectInUseProtection,
  TaintNodesByCondition: newTaintNodesByCondition,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionWebhook,
};

/**
 * Plugins that cannot run without a configuration. Upstream refuses to start when one is
 * enabled without it; here the gateways enable plugins and this service cannot know which, so
 * such a plugin is built only when --admission-control-config-file configures it, and a gateway
 * that asks for it otherwise gets an error saying so (the write fails closed).
 */
export const pluginsNeedingConfiguration: ReadonlySet<string> = new Set([
  'ImagePolicyWebhook',
  'EventRateLimit',
]);

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
