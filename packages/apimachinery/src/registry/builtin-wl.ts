// The workload and autoscaling kinds (short names and categories as upstream's REST storage:
// pkg/registry/{core,apps,batch,autoscaling,policy}/*/storage). HorizontalPodAutoscalers are one
// collection served in autoscaling/v1 and v2, stored at v2 (upstream's storage version), each
// object converted between the two by the conversions of ./conversion.ts.
import { allVerbs } from './resource-definition.js';
import type { ResourceDefinition } from './resource-definition.js';

type Def = Omit<ResourceDefinition, 'group' | 'version' | 'verbs' | 'listKind'>;

const kind = (group: string, version: string, def: Def): ResourceDefinition => ({
  group,
  version,
  verbs: allVerbs,
  listKind: `${def.kind}List`,
  ...def,
});

const hpa = (version: string): ResourceDefinition =>
  kind('autoscaling', version, {
    resource: 'horizontalpodautoscalers',
    kind: 'HorizontalPodAutoscaler',
    singular: 'horizontalpodautoscaler',
    namespaced: true,
    shortNames: ['hpa'],
    categories: ['all'],
    subresources: ['status'],
    storageVersion: 'v2',
  });

export const workloadResources: readonly ResourceDefinition[] = [
  kind('', 'v1', {
    resource: 'podtemplates',
    kind: 'PodTemplate',
    singular: 'podtemplate',
    namespaced: true,
  }),
  kind('', 'v1', {
    resource: 'replicationcontrollers',
    kind: 'ReplicationController',
    singular: 'replicationcontroller',
    namespaced: true,
    shortNames: ['rc'],
    categories: ['all'],
    subresources: ['status', 'scale'],
  }),
  kind('', 'v1', {
    resource: 'endpoints',
    kind: 'Endpoints',
    singular: 'endpoints',
    namespaced: true,
    shortNames: ['ep'],
  }),
  kind('apps', 'v1', {
    resource: 'statefulsets',
    kind: 'StatefulSet',
    singular: 'statefulset',
    namespaced: true,
    shortNames: ['sts'],
    categories: ['all'],
    subresources: ['status', 'scale'],
  }),
  kind('apps', 'v1', {
    resource: 'daemonsets',
    kind: 'DaemonSet',
    singular: 'daemonset',
    namespaced: true,
    shortNames: ['ds'],
    categories: ['all'],
    subresources: ['status'],
  }),
  kind('apps', 'v1', {
    resource: 'controllerrevisions',
    kind: 'ControllerRevision',
    singular: 'controllerrevision',
    namespaced: true,
  }),
  kind('batch', 'v1', {
    resource: 'jobs',
    kind: 'Job',
    singular: 'job',
    namespaced: true,
    categories: ['all'],
    subresources: ['status'],
  }),
  kind('batch', 'v1', {
    resource: 'cronjobs',
    kind: 'CronJob',
    singular: 'cronjob',
    namespaced: true,
    shortNames: ['cj'],
    categories: ['all'],
    subresources: ['status'],
  }),
  hpa('v2'),
  hpa('v1'),
  kind('policy', 'v1', {
    resource: 'poddisruptionbudgets',
    kind: 'PodDisruptionBudget',
    singular: 'poddisruptionbudget',
    namespaced: true,
    shortNames: ['pdb'],
    subresources: ['status'],
  }),
];
