// The apps group's REST storage (k8s pkg/registry/apps/rest/storage_apps.go).
import type { RestStorageProvider, SubresourceFunc } from '../rest-storage-provider.js';
import { ScaleRest } from '../scale-rest.js';
import { StatusRest } from '../status-rest.js';
import { controllerRevisionStrategy } from './controllerrevisions/strategy.js';
import { daemonSetStrategy } from './daemonsets/strategy.js';
import { deploymentStrategy } from './deployments/strategy.js';
import { replicaSetStrategy } from './replicasets/strategy.js';
import { statefulSetStrategy } from './statefulsets/strategy.js';

const status: SubresourceFunc = (store) => new StatusRest(store);
const scale: SubresourceFunc = (store) => new ScaleRest(store);

export const appsProvider: RestStorageProvider = {
  groupName: 'apps',
  resources: {
    deployments: { strategy: deploymentStrategy, subresources: { status, scale } },
    replicasets: { strategy: replicaSetStrategy, subresources: { status, scale } },
    statefulsets: { strategy: statefulSetStrategy, subresources: { status, scale } },
    daemonsets: { strategy: daemonSetStrategy, subresources: { status } },
    controllerrevisions: { strategy: controllerRevisionStrategy },
  },
};
