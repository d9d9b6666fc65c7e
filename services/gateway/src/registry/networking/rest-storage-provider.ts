// The networking group's REST storage (k8s pkg/registry/networking/rest/storage_settings.go).
import type { RestStorageProvider } from '../rest-storage-provider.js';
import { StatusRest } from '../status-rest.js';
import { ingressClassStrategy } from './ingressclasses/strategy.js';
import { ingressStrategy } from './ingresses/strategy.js';
import { networkPolicyStrategy } from './networkpolicies/strategy.js';

export const networkingProvider: RestStorageProvider = {
  groupName: 'networking.orch.io',
  resources: {
    ingresses: {
      strategy: ingressStrategy,
      subresources: { status: (store) => new StatusRest(store) },
    },
    ingressclasses: { strategy: ingressClassStrategy },
    networkpolicies: { strategy: networkPolicyStrategy },
  },
};
