// The apiregistration group's REST storage (k8s kube-aggregator pkg/registry/apiservice/rest):
// APIServices with /status.
import type { RestStorageProvider } from '../rest-storage-provider.js';
import { StatusRest } from '../status-rest.js';
import { apiServiceStatusStrategy, apiServiceStrategy } from './apiservices/strategy.js';

export const apiregistrationProvider: RestStorageProvider = {
  groupName: 'apiregistration.orch.io',
  resources: {
    apiservices: {
      strategy: apiServiceStrategy,
      subresources: { status: (store) => new StatusRest(store, apiServiceStatusStrategy) },
    },
  },
};
