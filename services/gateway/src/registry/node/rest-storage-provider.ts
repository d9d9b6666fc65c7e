// The node group's REST storage (k8s pkg/registry/node/rest/runtime_class.go).
import type { RestStorageProvider } from '../rest-storage-provider.js';
import { runtimeClassStrategy } from './runtimeclasses/strategy.js';

export const nodeProvider: RestStorageProvider = {
  groupName: 'node.orch.io',
  resources: {
    runtimeclasses: { strategy: runtimeClassStrategy },
  },
};
