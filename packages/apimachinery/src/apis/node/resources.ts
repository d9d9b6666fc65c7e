// The resources of node.orch.io, v1 (upstream pkg/registry/node/runtimeclass/storage).
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';

export const nodeGroup = 'node.orch.io';

export const nodeResources: readonly ResourceDefinition[] = [
  resource(nodeGroup, 'v1', {
    resource: 'runtimeclasses',
    kind: 'RuntimeClass',
    singular: 'runtimeclass',
    namespaced: false,
  }),
];
