// The Table of the core group's kinds, column for column and cell for cell as upstream's printers
// print the realistic objects (k8s pkg/printers/internalversion/printers.go: printPodTemplate,
// printReplicationController, printEndpoints, printPersistentVolume, printPersistentVolumeClaim,
// printResourceQuota).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realisticObjects } from '../../testdata/index.js';
import { tableOf } from '../../testdata/tables.js';

const now = Date.parse('2024-05-01T12:00:00Z');
const created = '2024-05-01T10:00:00Z';

function table(key: string, patch?: (o: any) => void) {
  const o: any = structuredClone(realisticObjects[key]);
  o.metadata.creationTimestamp = created;
  patch?.(o);
  const t = tableOf(key, o, now);
  return { columns: t.columns, row: t.cells };
}

const rows: [string, string[], unknown[], ((o: any) => void)?][] = [
  [
    'v1/PodTemplate',
    ['Name', 'Containers', 'Images', 'Pod Labels'],
    ['batch-worker', 'worker', 'registry.example.com/worker:2.0.1', 'app=worker'],
  ],
  [
    'v1/ReplicationController',
    ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers*', 'Images*', 'Selector*'],
    ['legacy-web', 3, 3, 2, '120m', 'legacy-web', 'nginx:1.25', 'app=legacy-web'],
  ],
  [
    'v1/Endpoints',
    ['Name', 'Endpoints', 'Age'],
    ['web', '10.244.1.5:8080,10.244.2.7:8080,10.244.1.5:9090 + 1 more...', '120m'],
  ],
  [
    'v1/Endpoints',
    ['Name', 'Endpoints', 'Age'],
    ['web', '<none>', '120m'],
    (o) => delete o.subsets,
  ],
];

for (const [key, columns, row, patch] of rows) {
  test(`${key} Table columns and cells as kubectl prints them${patch ? ' (variant)' : ''}`, () => {
    const t = table(key, patch);
    assert.deepEqual(t.columns, columns);
    assert.deepEqual(t.row, row);
  });
}

// Persistent volumes and claims, their Age at a later now.
const volumesNow = Date.parse('2024-05-01T12:20:30Z');

function volumeTable(key: string, obj: Record<string, unknown> = realisticObjects[key]!) {
  const t = tableOf(key, obj, volumesNow);
  assert.ok(t.declared, `${key} declares columns`);
  return t;
}

// Each row: the kind, upstream's columns (priority 1 marked *), the cells of the realistic object.
const volumeRows: [string, string[], unknown[]][] = [
  [
    'v1/PersistentVolume',
    [
      'Name',
      'Capacity',
      'Access Modes',
      'Reclaim Policy',
      'Status',
      'Claim',
      'StorageClass',
      'VolumeAttributesClass',
      'Reason',
      'Age',
      'VolumeMode*',
    ],
    [
      'pv-data-0',
      '10Gi',
      'RWO,ROX',
      'Delete',
      'Bound',
      'default/data-web-0',
      'fast',
      '<unset>',
      '',
      '140m',
      'Filesystem',
    ],
  ],
  [
    'v1/PersistentVolumeClaim',
    [
      'Name',
      'Status',
      'Volume',
      'Capacity',
      'Access Modes',
      'StorageClass',
      'VolumeAttributesClass',
      'Age',
      'VolumeMode*',
    ],
    ['data-web-0', 'Bound', 'pv-data-0', '10Gi', 'RWO', 'fast', '<unset>', '140m', 'Filesystem'],
  ],
];

for (const [key, columns, cells] of volumeRows) {
  test(`Table of ${key}: upstream's columns and cells`, () => {
    const t = volumeTable(key);
    assert.deepEqual(t.columns, columns);
    assert.deepEqual(t.cells, cells);
  });
}

test('printPersistentVolumeClaim: an unbound claim shows no capacity or modes; a deleted one is Terminating', () => {
  const pvc = structuredClone(realisticObjects['v1/PersistentVolumeClaim']!) as any;
  delete pvc.spec.volumeName;
  pvc.metadata.deletionTimestamp = '2024-05-01T12:00:00Z';
  const { cells } = volumeTable('v1/PersistentVolumeClaim', pvc);
  assert.deepEqual(cells.slice(1, 5), ['Terminating', '', '', '']);
});

// printResourceQuota: Name, Age, Request, Limit; LimitRange has no printer: Name, Created At.
test('ResourceQuota rows: used/hard per resource, limits.* in Limit, the rest in Request', () => {
  const t = tableOf('v1/ResourceQuota', realisticObjects['v1/ResourceQuota']!, now);
  assert.deepEqual(t.columns, ['Name', 'Age', 'Request', 'Limit']);
  assert.deepEqual(t.cells, [
    'compute',
    '120m',
    'count/deployments.apps: 1/5, pods: 3/10, requests.cpu: 1500m/4',
    'limits.memory: 3Gi/8Gi',
  ]);
});

test('LimitRange rows: Name and Created At', () => {
  const t = tableOf('v1/LimitRange', realisticObjects['v1/LimitRange']!, now);
  assert.deepEqual(t.columns, ['Name', 'Created At']);
  assert.deepEqual(t.cells, ['limits', '2024-05-01T10:00:00Z']);
});
