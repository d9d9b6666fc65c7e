// The built-in kinds served by the gateway. Adding a kind is one entry here plus, when it needs
// more than the generic rules, a strategy in the gateway's registry/<group>/<resource>/.
import { allVerbs } from './resource-definition.js';
import type { ResourceDefinition } from './resource-definition.js';

const core = (def: Omit<ResourceDefinition, 'group' | 'version' | 'verbs' | 'listKind'>): ResourceDefinition => ({
  group: '',
  version: 'v1',
  verbs: allVerbs,
  listKind: `${def.kind}List`,
  ...def,
});

const named = (
  group: string,
  version: string,
  def: Omit<ResourceDefinition, 'group' | 'version' | 'verbs' | 'listKind'>
): ResourceDefinition => ({ group, version, verbs: allVerbs, listKind: `${def.kind}List`, ...def });

export const builtinResources: readonly ResourceDefinition[] = [
  core({
    resource: 'namespaces',
    kind: 'Namespace',
    singular: 'namespace',
    namespaced: false,
    shortNames: ['ns'],
    subresources: ['status', 'finalize'],
    selectableFields: ['status.phase'],
  }),
  core({ resource: 'configmaps', kind: 'ConfigMap', singular: 'configmap', namespaced: true, shortNames: ['cm'] }),
  core({ resource: 'secrets', kind: 'Secret', singular: 'secret', namespaced: true, selectableFields: ['type'] }),
  core({
    resource: 'serviceaccounts',
    kind: 'ServiceAccount',
    singular: 'serviceaccount',
    namespaced: true,
    shortNames: ['sa'],
    subresources: ['token'],
  }),
  core({
    resource: 'pods',
    kind: 'Pod',
    singular: 'pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    subresources: ['status'],
    selectableFields: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
  }),
  core({
    resource: 'services',
    kind: 'Service',
    singular: 'service',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
    subresources: ['status'],
  }),
  core({
    resource: 'nodes',
    kind: 'Node',
    singular: 'node',
    namespaced: false,
    shortNames: ['no'],
    subresources: ['status'],
    selectableFields: ['spec.unschedulable'],
  }),
  core({
    resource: 'events',
    kind: 'Event',
    singular: 'event',
    namespaced: true,
    shortNames: ['ev'],
    selectableFields: ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type'],
  }),
  named('apps', 'v1', {
    resource: 'deployments',
    kind: 'Deployment',
    singular: 'deployment',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: ['status'],
  }),
  named('apps', 'v1', {
    resource: 'replicasets',
    kind: 'ReplicaSet',
    singular: 'replicaset',
    namespaced: true,
    shortNames: ['rs'],
    categories: ['all'],
    subresources: ['status'],
  }),
  named('coordination.orch.io', 'v1', { resource: 'leases', kind: 'Lease', singular: 'lease', namespaced: true }),
  named('events.orch.io', 'v1', {
    resource: 'events',
    kind: 'Event',
    singular: 'event',
    namespaced: true,
    shortNames: ['ev'],
    selectableFields: ['regarding.kind', 'regarding.namespace', 'regarding.name', 'regarding.uid', 'reason', 'reportingController', 'type'],
  }),
  // authentication: operations, not stored kinds
  ...['v1', 'v1beta1'].map((v) => ({
    ...named('authentication.orch.io', v, { resource: 'tokenreviews', kind: 'TokenReview', singular: 'tokenreview', namespaced: false }),
    verbs: ['create'] as const,
    virtual: true,
  })),
];
