// The batch group's REST storage (k8s pkg/registry/batch/rest/storage_batch.go).
import type { RestStorageProvider, SubresourceFunc } from '../rest-storage-provider.js';
import { StatusRest } from '../status-rest.js';
import { cronJobStrategy } from './cronjobs/strategy.js';
import { jobStrategy } from './jobs/strategy.js';

const status: SubresourceFunc = (store) => new StatusRest(store);

export const batchProvider: RestStorageProvider = {
  groupName: 'batch',
  resources: {
    jobs: { strategy: jobStrategy, subresources: { status } },
    cronjobs: { strategy: cronJobStrategy, subresources: { status } },
  },
};
