// The core group's REST storage (k8s pkg/registry/core/rest/storage_core.go, the legacy
// provider): every v1 kind's strategy, the Stores of Services (cluster IPs and node ports
// handed out around the write), and the pod (log through the node's agent), namespace and
// status subresources.
// serviceaccounts/token is built by authentication, which holds the token issuer.
import type { RestStorageProvider, SubresourceFunc } from '../rest-storage-provider.js';
import { restKey } from '../rest.js';
import { ScaleRest } from '../scale-rest.js';
import { StatusRest } from '../status-rest.js';
import { Store } from '../store.js';
import { defaultStrategy } from '../strategy.js';
import { configMapStrategy } from './configmaps/strategy.js';
import { endpointsStrategy } from './endpoints/strategy.js';
import { coreEventStrategy } from './events/strategy.js';
import { limitRangeStrategy } from './limitranges/strategy.js';
import { FinalizeRest } from './namespaces/finalize-rest.js';
import { namespaceStrategy } from './namespaces/strategy.js';
import { persistentVolumeClaimStrategy } from './persistentvolumeclaims/strategy.js';
import { persistentVolumeStrategy } from './persistentvolumes/strategy.js';
import { BindingRest } from './pods/binding-rest.js';
import { evictionRestFor } from './pods/eviction-rest.js';
import { PodLogRest } from './pods/log-rest.js';
import { PodAttachRest } from './pods/attach-rest.js';
import { PodPortForwardRest } from './pods/portforward-rest.js';
import { PodExecRest } from './pods/exec-rest.js';
import type { KubeletClient } from './nodes/kubelet-client.js';
import { NodeProxyRest } from './nodes/proxy-rest.js';
import { PodProxyRest } from './pods/proxy-rest.js';
import type { ProxyTransport } from './proxy-transport.js';
import { ServiceProxyRest } from './services/proxy-rest.js';
import { podStatusStrategy, podStrategy } from './pods/strategy.js';
import { podTemplateStrategy } from './podtemplates/strategy.js';
import { replicationControllerStrategy } from './replicationcontrollers/strategy.js';
import { resourceQuotaStrategy } from './resourcequotas/strategy.js';
import { secretStrategy } from './secrets/strategy.js';
import { ServiceAllocator } from './services/service-allocator.js';
import type { ServiceRanges } from './services/service-allocator.js';
import { ServiceStore } from './services/service-store.js';
import { serviceStrategy } from './services/strategy.js';

/** What the core group's Stores need beyond storage (k8s corerest.Config). */
export interface CoreStorageOptions {
  /** Where Services' cluster IPs and node ports come from (without: none are handed out). */
  serviceRanges?: ServiceRanges;
  /** A release of IPs or ports that failed (the value stays taken). */
  onReleaseError?: (err: unknown) => void;
  /** How pods/log reaches a node's agent (without: the subresource is not served). */
  kubeletClient?: KubeletClient;
  /** How pods/proxy and services/proxy reach their backends (without: not served). */
  proxyTransport?: ProxyTransport;
}

const status: SubresourceFunc = (store) => new StatusRest(store);

export function coreProvider(opts: CoreStorageOptions = {}): RestStorageProvider {
  const { serviceRanges, onReleaseError, kubeletClient, proxyTransport } = opts;
  const nodesKey = restKey({ group: '', version: 'v1', resource: 'nodes' });
  const podsKey = restKey({ group: '', version: 'v1', resource: 'pods' });
  const endpointsKey = restKey({ group: '', version: 'v1', resource: 'endpoints' });
  return {
    groupName: '',
    resources: {
      namespaces: {
        strategy: namespaceStrategy,
        subresources: { status, finalize: (store) => new FinalizeRest(store) },
      },
      configmaps: { strategy: configMapStrategy },
      secrets: { strategy: secretStrategy },
      serviceaccounts: {
        strategy: { ...defaultStrategy({ hasStatus: false }), returnDeletedObject: true },
      },
      pods: {
        strategy: podStrategy,
        subresources: {
          status: (store) => new StatusRest(store, podStatusStrategy(store.strategy)),
          binding: (store) => new BindingRest(store),
          eviction: evictionRestFor,
          log: (store, stores) => {
            const nodes = stores.get(nodesKey);
            return kubeletClient && nodes && new PodLogRest(store, nodes, kubeletClient);
          },
          exec: (store, stores) => {
            const nodes = stores.get(nodesKey);
            return kubeletClient && nodes && new PodExecRest(store, nodes, kubeletClient);
          },
          attach: (store, stores) => {
            const nodes = stores.get(nodesKey);
            return kubeletClient && nodes && new PodAttachRest(store, nodes, kubeletClient);
          },
          portforward: (store, stores) => {
            const nodes = stores.get(nodesKey);
            return kubeletClient && nodes && new PodPortForwardRest(store, nodes, kubeletClient);
          },
          proxy: (store) => proxyTransport && new PodProxyRest(store, proxyTransport),
        },
      },
      // The `bindings` collection binds the pod its Binding names (upstream's LegacyBinding).
      bindings: {
        newRest: (stores) => {
          const pods = stores.get(restKey({ group: '', version: 'v1', resource: 'pods' }));
          return pods && new BindingRest(pods);
        },
      },
      services: {
        strategy: serviceStrategy,
        newStore: (def, strategy, { storage, cachers }) =>
          serviceRanges
            ? new ServiceStore(
                def,
                strategy,
                storage,
                cachers,
                new ServiceAllocator(storage, serviceRanges, onReleaseError)
              )
            : new Store(def, strategy, storage, cachers),
        subresources: {
          status,
          proxy: (store, stores) => {
            const [endpoints, pods] = [stores.get(endpointsKey), stores.get(podsKey)];
            return (
              proxyTransport &&
              endpoints &&
              pods &&
              new ServiceProxyRest(store, endpoints, pods, proxyTransport)
            );
          },
        },
      },
      nodes: {
        subresources: {
          status,
          proxy: (store) => kubeletClient && new NodeProxyRest(store, kubeletClient),
        },
      },
      events: { strategy: coreEventStrategy },
      resourcequotas: { strategy: resourceQuotaStrategy, subresources: { status } },
      limitranges: { strategy: limitRangeStrategy },
      podtemplates: { strategy: podTemplateStrategy },
      replicationcontrollers: {
        strategy: replicationControllerStrategy,
        subresources: { status, scale: (store) => new ScaleRest(store) },
      },
      endpoints: { strategy: endpointsStrategy },
      persistentvolumes: { strategy: persistentVolumeStrategy, subresources: { status } },
      persistentvolumeclaims: { strategy: persistentVolumeClaimStrategy, subresources: { status } },
    },
  };
}
