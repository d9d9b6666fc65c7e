// The resources of the policy group, v1 (upstream pkg/registry/policy/poddisruptionbudget/storage).
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';

export const policyResources: readonly ResourceDefinition[] = [
  resource('policy', 'v1', {
    resource: 'poddisruptionbudgets',
    kind: 'PodDisruptionBudget',
    singular: 'poddisruptionbudget',
    namespaced: true,
    shortNames: ['pdb'],
    subresources: ['status'],
  }),
];
