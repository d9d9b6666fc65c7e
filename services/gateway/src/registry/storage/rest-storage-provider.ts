// The storage group's REST storage (k8s pkg/registry/storage/rest/storage_storage.go).
import type { RestStorageProvider } from '../rest-storage-provider.js';
import { StatusRest } from '../status-rest.js';
import { csiDriverStrategy } from './csidrivers/strategy.js';
import { csiNodeStrategy } from './csinodes/strategy.js';
import { csiStorageCapacityStrategy } from './csistoragecapacities/strategy.js';
import { storageClassStrategy } from './storageclasses/strategy.js';
import { volumeAttributesClassStrategy } from './volumeattributesclasses/strategy.js';
import { volumeAttachmentStrategy } from './volumeattachments/strategy.js';

export const storageProvider: RestStorageProvider = {
  groupName: 'storage.orch.io',
  resources: {
    storageclasses: { strategy: storageClassStrategy },
    csidrivers: { strategy: csiDriverStrategy },
    csinodes: { strategy: csiNodeStrategy },
    volumeattachments: {
      strategy: volumeAttachmentStrategy,
      subresources: { status: (store) => new StatusRest(store) },
    },
    csistoragecapacities: { strategy: csiStorageCapacityStrategy },
    volumeattributesclasses: { strategy: volumeAttributesClassStrategy },
  },
};
