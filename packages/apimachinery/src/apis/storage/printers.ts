// The named printers of the storage kinds' Table columns, cell for cell as kubectl's server-side
// printers (k8s pkg/printers/internalversion/printers.go: printStorageClass, printCSIDriver,
// printCSINode, printVolumeAttachment, printCSIStorageCapacity).
import type { TablePrinter } from '../types.js';
import { arr, at, bool, str } from '../table-cells.js';

export const storageTablePrinters: Readonly<Record<string, TablePrinter>> = {
  storageClassReclaimPolicy: (o) => str(o['reclaimPolicy']) || 'Delete',
  storageClassBindingMode: (o) => str(o['volumeBindingMode']) || 'Immediate',
  storageClassExpansion: (o) => bool(o['allowVolumeExpansion'], false),
  csiAttachRequired: (o) => bool(at(o, 'spec.attachRequired'), true),
  csiPodInfoOnMount: (o) => bool(at(o, 'spec.podInfoOnMount'), false),
  csiStorageCapacity: (o) => bool(at(o, 'spec.storageCapacity'), false),
  csiTokenRequests: (o) => {
    const audiences = arr(at(o, 'spec.tokenRequests')).map((t) => str(t['audience']));
    return audiences.length > 0 ? audiences.join(',') : '<unset>';
  },
  csiRequiresRepublish: (o) => bool(at(o, 'spec.requiresRepublish'), false),
  csiModes: (o) => arr(at(o, 'spec.volumeLifecycleModes')).map(String).join(',') || '<none>',
  csiNodeDrivers: (o) => arr(at(o, 'spec.drivers')).length,
  volumeAttached: (o) => bool(at(o, 'status.attached'), false),
  storageCapacity: (o) => str(o['capacity']) || '<unset>',
};
