// storage.orch.io (upstream pkg/apis/storage): StorageClass, CSIDriver, CSINode, VolumeAttachment,
// CSIStorageCapacity in v1; VolumeAttributesClass in v1beta1.
import type { APIGroupDefinition } from '../types.js';
import { storageTablePrinters } from './printers.js';
import { storageGroup, storageResources } from './resources.js';

export const storage: APIGroupDefinition = {
  name: storageGroup,
  resources: storageResources,
  tablePrinters: storageTablePrinters,
};
