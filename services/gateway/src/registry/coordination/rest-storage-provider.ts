// The coordination group's REST storage (k8s pkg/registry/coordination/rest/
// storage_coordination.go): Leases under the generic rules.
import type { RestStorageProvider } from '../rest-storage-provider.js';

export const coordinationProvider: RestStorageProvider = {
  groupName: 'coordination.orch.io',
  resources: {
    leases: {},
  },
};
