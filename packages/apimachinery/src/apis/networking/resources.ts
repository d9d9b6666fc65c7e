// The resources of networking.orch.io, v1 (upstream pkg/registry/networking/*/storage).
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';

export const networkingGroup = 'networking.orch.io';

export const networkingResources: readonly ResourceDefinition[] = [
  resource(networkingGroup, 'v1', {
    resource: 'ingresses',
    kind: 'Ingress',
    singular: 'ingress',
    namespaced: true,
    shortNames: ['ing'],
    subresources: ['status'],
  }),
  resource(networkingGroup, 'v1', {
    resource: 'ingressclasses',
    kind: 'IngressClass',
    singular: 'ingressclass',
    namespaced: false,
  }),
  resource(networkingGroup, 'v1', {
    resource: 'networkpolicies',
    kind: 'NetworkPolicy',
    singular: 'networkpolicy',
    namespaced: true,
    shortNames: ['netpol'],
  }),
];
