// The policy group's REST storage (k8s pkg/registry/policy/rest/storage_policy.go). Evictions
// are a subresource of pods (core).
import type { RestStorageProvider } from '../rest-storage-provider.js';
import { StatusRest } from '../status-rest.js';
import { podDisruptionBudgetStrategy } from './poddisruptionbudgets/strategy.js';

export const policyProvider: RestStorageProvider = {
  groupName: 'policy',
  resources: {
    poddisruptionbudgets: {
      strategy: podDisruptionBudgetStrategy,
      subresources: { status: (store) => new StatusRest(store) },
    },
  },
};
