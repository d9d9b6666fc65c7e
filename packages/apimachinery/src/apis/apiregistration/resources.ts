// The resources of apiregistration.orch.io, v1 (upstream kube-aggregator
// pkg/registry/apiservice/etcd).
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';

export const apiregistrationGroup = 'apiregistration.orch.io';

export const apiregistrationResources: readonly ResourceDefinition[] = [
  resource(apiregistrationGroup, 'v1', {
    resource: 'apiservices',
    kind: 'APIService',
    singular: 'apiservice',
    namespaced: false,
    categories: ['api-extensions'],
    subresources: ['status'],
  }),
];
