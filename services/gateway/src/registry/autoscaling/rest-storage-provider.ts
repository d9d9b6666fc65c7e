// The autoscaling group's REST storage (k8s pkg/registry/autoscaling/rest/storage_autoscaling.go):
// one strategy for both served versions of HorizontalPodAutoscalers (it sees v2, the storage
// version).
import type { RestStorageProvider } from '../rest-storage-provider.js';
import { StatusRest } from '../status-rest.js';
import { horizontalPodAutoscalerStrategy } from './horizontalpodautoscalers/strategy.js';

export const autoscalingProvider: RestStorageProvider = {
  groupName: 'autoscaling',
  resources: {
    horizontalpodautoscalers: {
      strategy: horizontalPodAutoscalerStrategy,
      subresources: { status: (store) => new StatusRest(store) },
    },
  },
};
