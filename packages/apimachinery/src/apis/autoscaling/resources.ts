// The resources of the autoscaling group (upstream pkg/registry/autoscaling/
// horizontalpodautoscaler/storage). HorizontalPodAutoscalers are one collection served in
// autoscaling/v1 and v2, stored at v2 (upstream's storage version), each object converted
// between the two by ./conversion.ts.
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';

const hpa = (version: string): ResourceDefinition =>
  resource('autoscaling', version, {
    resource: 'horizontalpodautoscalers',
    kind: 'HorizontalPodAutoscaler',
    singular: 'horizontalpodautoscaler',
    namespaced: true,
    shortNames: ['hpa'],
    categories: ['all'],
    subresources: ['status'],
    storageVersion: 'v2',
  });

export const autoscalingResources: readonly ResourceDefinition[] = [hpa('v2'), hpa('v1')];
