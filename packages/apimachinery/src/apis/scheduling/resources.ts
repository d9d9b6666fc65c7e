// The resources of scheduling.orch.io, v1 (upstream pkg/registry/scheduling/priorityclass/storage).
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';

export const schedulingGroup = 'scheduling.orch.io';

export const schedulingResources: readonly ResourceDefinition[] = [
  resource(schedulingGroup, 'v1', {
    resource: 'priorityclasses',
    kind: 'PriorityClass',
    singular: 'priorityclass',
    namespaced: false,
    shortNames: ['pc'],
  }),
];
