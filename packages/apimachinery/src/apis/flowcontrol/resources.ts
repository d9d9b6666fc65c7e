// The resources of flowcontrol.apiserver.orch.io, v1 (upstream pkg/registry/flowcontrol/*/storage).
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';

export const flowcontrolGroup = 'flowcontrol.apiserver.orch.io';

export const flowcontrolResources: readonly ResourceDefinition[] = [
  resource(flowcontrolGroup, 'v1', {
    resource: 'flowschemas',
    kind: 'FlowSchema',
    singular: 'flowschema',
    namespaced: false,
    subresources: ['status'],
  }),
  resource(flowcontrolGroup, 'v1', {
    resource: 'prioritylevelconfigurations',
    kind: 'PriorityLevelConfiguration',
    singular: 'prioritylevelconfiguration',
    namespaced: false,
    subresources: ['status'],
  }),
];
