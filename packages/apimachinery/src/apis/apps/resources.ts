// The resources of the apps group, v1 (upstream pkg/registry/apps/*/storage).
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';
import type { ResourceFields } from '../types.js';

const apps = (def: ResourceFields): ResourceDefinition => resource('apps', 'v1', def);

export const appsResources: readonly ResourceDefinition[] = [
  apps({
    resource: 'deployments',
    kind: 'Deployment',
    singular: 'deployment',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: ['status', 'scale'],
  }),
  apps({
    resource: 'replicasets',
    kind: 'ReplicaSet',
    singular: 'replicaset',
    namespaced: true,
    shortNames: ['rs'],
    categories: ['all'],
    subresources: ['status', 'scale'],
  }),
  apps({
    resource: 'statefulsets',
    kind: 'StatefulSet',
    singular: 'statefulset',
    namespaced: true,
    shortNames: ['sts'],
    categories: ['all'],
    subresources: ['status', 'scale'],
  }),
  apps({
    resource: 'daemonsets',
    kind: 'DaemonSet',
    singular: 'daemonset',
    namespaced: true,
    shortNames: ['ds'],
    categories: ['all'],
    subresources: ['status'],
  }),
  apps({
    resource: 'controllerrevisions',
    kind: 'ControllerRevision',
    singular: 'controllerrevision',
    namespaced: true,
  }),
];
