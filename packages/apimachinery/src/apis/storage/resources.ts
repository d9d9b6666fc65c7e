// The resources of storage.orch.io (upstream pkg/registry/storage/*/storage): v1, and
// VolumeAttributesClass in v1beta1, the one kind upstream 1.32 serves there (introduced in 1.31: a
// beta after 1.22, so off unless --runtime-config turns storage.orch.io/v1beta1 on).
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
  resource(storageGroup, 'v1beta1', {
    resource: 'volumeattributesclasses',
    kind: 'VolumeAttributesClass',
    singular: 'volumeattributesclass',
    namespaced: false,
    shortNames: ['vac'],
  }),
];
