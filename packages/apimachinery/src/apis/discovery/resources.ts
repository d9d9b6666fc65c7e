// The resources of discovery.orch.io, v1 (upstream pkg/registry/discovery/endpointslice/storage).
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';

export const discoveryGroup = 'discovery.orch.io';

export const discoveryResources: readonly ResourceDefinition[] = [
  resource(discoveryGroup, 'v1', {
    resource: 'endpointslices',
    kind: 'EndpointSlice',
    singular: 'endpointslice',
    namespaced: true,
  }),
];
