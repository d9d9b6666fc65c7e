// The flowcontrol group's REST storage (k8s pkg/registry/flowcontrol/rest/storage_flowcontrol.go).
import type { RestStorageProvider, SubresourceFunc } from '../rest-storage-provider.js';
import { StatusRest } from '../status-rest.js';
import { flowSchemaStrategy } from './flowschemas/strategy.js';
import { priorityLevelConfigurationStrategy } from './prioritylevelconfigurations/strategy.js';

const status: SubresourceFunc = (store) => new StatusRest(store);

export const flowcontrolProvider: RestStorageProvider = {
  groupName: 'flowcontrol.apiserver.orch.io',
  resources: {
    flowschemas: { strategy: flowSchemaStrategy, subresources: { status } },
    prioritylevelconfigurations: {
      strategy: priorityLevelConfigurationStrategy,
      subresources: { status },
    },
  },
};
