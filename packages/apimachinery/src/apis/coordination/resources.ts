// The resources of coordination.orch.io, v1 (upstream pkg/registry/coordination/lease/storage).
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';

export const coordinationGroup = 'coordination.orch.io';

export const coordinationResources: readonly ResourceDefinition[] = [
  resource(coordinationGroup, 'v1', {
    resource: 'leases',
    kind: 'Lease',
    singular: 'lease',
    namespaced: true,
  }),
];
