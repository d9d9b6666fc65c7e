// The resources of the batch group, v1 (upstream pkg/registry/batch/*/storage).
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';

export const batchResources: readonly ResourceDefinition[] = [
  resource('batch', 'v1', {
    resource: 'jobs',
    kind: 'Job',
    singular: 'job',
    namespaced: true,
    categories: ['all'],
    subresources: ['status'],
  }),
  resource('batch', 'v1', {
    resource: 'cronjobs',
    kind: 'CronJob',
    singular: 'cronjob',
    namespaced: true,
    shortNames: ['cj'],
    categories: ['all'],
    subresources: ['status'],
  }),
];
