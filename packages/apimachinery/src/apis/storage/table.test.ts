// The Table of storage.orch.io's kinds, column for column and cell for cell as upstream's printers
// print the realistic objects (k8s pkg/printers/internalversion/printers.go: printStorageClass,
// printCSIDriver, printCSINode, printVolumeAttachment, printCSIStorageCapacity,
// printVolumeAttributesClass).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realisticObjects } from '../../testdata/index.js';
import { tableOf } from '../../testdata/tables.js';

const now = Date.parse('2024-05-01T12:20:30Z');

function table(key: string, obj: Record<string, unknown> = realisticObjects[key]!) {
  const t = tableOf(key, obj, now);
  assert.ok(t.declared, `${key} declares columns`);
  return t;
}

// Each row: the kind, upstream's columns (priority 1 marked *), the cells of the realistic object.
const rows: [string, string[], unknown[]][] = [
  [
    'storage.orch.io/v1/StorageClass',
    ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age'],
    ['fast', 'csi.example.com', 'Retain', 'WaitForFirstConsumer', true, '140m'],
  ],
  [
    'storage.orch.io/v1/CSIDriver',
    [
      'Name',
      'AttachRequired',
      'PodInfoOnMount',
      'StorageCapacity',
      'TokenRequests',
      'RequiresRepublish',
      'Modes',
      'Age',
    ],
    ['csi.example.com', true, false, true, 'vault', false, 'Persistent,Ephemeral', '140m'],
  ],
  ['storage.orch.io/v1/CSINode', ['Name', 'Drivers', 'Age'], ['node-1', 1, '140m']],
  [
    'storage.orch.io/v1/VolumeAttachment',
    ['Name', 'Attacher', 'PV', 'Node', 'Attached', 'Age'],
    ['csi-0123456789abcdef', 'csi.example.com', 'pv-data-0', 'node-1', true, '140m'],
  ],
  [
    'storage.orch.io/v1/CSIStorageCapacity',
    ['Name', 'StorageClassName', 'Capacity', 'Age'],
    ['csisc-7x2kq', 'fast', '500Gi', '140m'],
  ],
  [
    'storage.orch.io/v1beta1/VolumeAttributesClass',
    ['Name', 'DriverName', 'Age'],
    ['gold', 'csi.example.com', '140m'],
  ],
];

for (const [key, columns, cells] of rows) {
  test(`Table of ${key}: upstream's columns and cells`, () => {
    const t = table(key);
    assert.deepEqual(t.columns, columns);
    assert.deepEqual(t.cells, cells);
  });
}

test('printStorageClass, printCSIDriver: unset fields print their defaults', () => {
  const sc = { metadata: { name: 'plain' }, provisioner: 'p' };
  assert.deepEqual(table('storage.orch.io/v1/StorageClass', sc).cells.slice(2, 5), [
    'Delete',
    'Immediate',
    false,
  ]);
  const d = { metadata: { name: 'd' }, spec: {} };
  assert.deepEqual(table('storage.orch.io/v1/CSIDriver', d).cells.slice(1, 7), [
    true,
    false,
    false,
    '<unset>',
    false,
    '<none>',
  ]);
});
