// The resources of storage.orch.io, v1 (upstream pkg/registry/storage/*/storage).
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';

export const storageGroup = 'storage.orch.io';

export const storageResources: readonly ResourceDefinition[] = [
  resource(storageGroup, 'v1', {
    resource: 'storageclasses',
    kind: 'StorageClass',
    singular: 'storageclass',
    namespaced: false,
    shortNames: ['sc'],
  }),
  resource(storageGroup, 'v1', {
    resource: 'csidrivers',
    kind: 'CSIDriver',
    singular: 'csidriver',
    namespaced: false,
  }),
  resource(storageGroup, 'v1', {
    resource: 'csinodes',
    kind: 'CSINode',
    singular: 'csinode',
    namespaced: false,
  }),
  resource(storageGroup, 'v1', {
    resource: 'volumeattachments',
    kind: 'VolumeAttachment',
    singular: 'volumeattachment',
    namespaced: false,
    subresources: ['status'],
  }),
  resource(storageGroup, 'v1', {
    resource: 'csistoragecapacities',
    kind: 'CSIStorageCapacity',
    singular: 'csistoragecapacity',
    namespaced: true,
  }),
];
