// The scheduling group's REST storage (k8s pkg/registry/scheduling/rest/storage_scheduling.go):
// PriorityClasses, whose Store refuses to delete the system classes.
import type { RestStorageProvider } from '../rest-storage-provider.js';
import { PriorityClassStore } from './priorityclasses/priority-class-store.js';
import { priorityClassStrategy } from './priorityclasses/strategy.js';

export const schedulingProvider: RestStorageProvider = {
  groupName: 'scheduling.orch.io',
  resources: {
    priorityclasses: {
      strategy: priorityClassStrategy,
      newStore: (def, strategy, { storage, cachers }) =>
        new PriorityClassStore(def, strategy, storage, cachers),
    },
  },
};
