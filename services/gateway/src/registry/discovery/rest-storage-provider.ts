// The discovery group's REST storage (k8s pkg/registry/discovery/rest/storage_discovery.go).
import type { RestStorageProvider } from '../rest-storage-provider.js';
import { endpointSliceStrategy } from './endpointslices/strategy.js';

export const discoveryProvider: RestStorageProvider = {
  groupName: 'discovery.orch.io',
  resources: {
    endpointslices: { strategy: endpointSliceStrategy },
  },
};
