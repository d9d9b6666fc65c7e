// The platform kinds (issue 18, plat): persistent volumes and claims, networking, discovery,
// storage, scheduling, node and flowcontrol. Short names, scope and subresources as upstream's
// REST storages (k8s pkg/registry/<group>/<resource>/storage/storage.go ShortNames, Categories).
import { allVerbs } from './resource-definition.js';
import type { ResourceDefinition } from './resource-definition.js';

const kind = (
  group: string,
  def: Omit<ResourceDefinition, 'group' | 'version' | 'verbs' | 'listKind'>
): ResourceDefinition => ({
  group,
  version: 'v1',
  verbs: allVerbs,
  listKind: `${def.kind}List`,
  ...def,
});

export const platResources: readonly ResourceDefinition[] = [
  kind('', {
    resource: 'persistentvolumes',
    kind: 'PersistentVolume',
    singular: 'persistentvolume',
    namespaced: false,
    shortNames: ['pv'],
    subresources: ['status'],
  }),
  kind('', {
    resource: 'persistentvolumeclaims',
    kind: 'PersistentVolumeClaim',
    singular: 'persistentvolumeclaim',
    namespaced: true,
    shortNames: ['pvc'],
    subresources: ['status'],
  }),
  kind('networking.orch.io', {
    resource: 'ingresses',
    kind: 'Ingress',
    singular: 'ingress',
    namespaced: true,
    shortNames: ['ing'],
    subresources: ['status'],
  }),
  kind('networking.orch.io', {
    resource: 'ingressclasses',
    kind: 'IngressClass',
    singular: 'ingressclass',
    namespaced: false,
  }),
  kind('networking.orch.io', {
    resource: 'networkpolicies',
    kind: 'NetworkPolicy',
    singular: 'networkpolicy',
    namespaced: true,
    shortNames: ['netpol'],
  }),
  kind('discovery.orch.io', {
    resource: 'endpointslices',
    kind: 'EndpointSlice',
    singular: 'endpointslice',
    namespaced: true,
  }),
  kind('storage.orch.io', {
    resource: 'storageclasses',
    kind: 'StorageClass',
    singular: 'storageclass',
    namespaced: false,
    shortNames: ['sc'],
  }),
  kind('storage.orch.io', {
    resource: 'csidrivers',
    kind: 'CSIDriver',
    singular: 'csidriver',
    namespaced: false,
  }),
  kind('storage.orch.io', {
    resource: 'csinodes',
    kind: 'CSINode',
    singular: 'csinode',
    namespaced: false,
  }),
  kind('storage.orch.io', {
    resource: 'volumeattachments',
    kind: 'VolumeAttachment',
    singular: 'volumeattachment',
    namespaced: false,
    subresources: ['status'],
  }),
  kind('storage.orch.io', {
    resource: 'csistoragecapacities',
    kind: 'CSIStorageCapacity',
    singular: 'csistoragecapacity',
    namespaced: true,
  }),
  kind('scheduling.orch.io', {
    resource: 'priorityclasses',
    kind: 'PriorityClass',
    singular: 'priorityclass',
    namespaced: false,
    shortNames: ['pc'],
  }),
  kind('node.orch.io', {
    resource: 'runtimeclasses',
    kind: 'RuntimeClass',
    singular: 'runtimeclass',
    namespaced: false,
  }),
  kind('flowcontrol.apiserver.orch.io', {
    resource: 'flowschemas',
    kind: 'FlowSchema',
    singular: 'flowschema',
    namespaced: false,
    subresources: ['status'],
  }),
  kind('flowcontrol.apiserver.orch.io', {
    resource: 'prioritylevelconfigurations',
    kind: 'PriorityLevelConfiguration',
    singular: 'prioritylevelconfiguration',
    namespaced: false,
    subresources: ['status'],
  }),
];
