// Table columns and cells of the platform kinds, against upstream's printers
// (k8s pkg/printers/internalversion/printers.go: the column names of each add*Handlers and the
// cells its print* function writes for the realistic object of realistic-objects-plat.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinSchemaModel } from './schema-model.js';
import { toTable } from './to-table.js';
import { realisticObjects } from '../testdata/index.js';

const model = builtinSchemaModel();
const now = Date.parse('2024-05-01T12:20:30Z');

function table(key: string, obj: Record<string, unknown> = realisticObjects[key]!) {
  const parts = key.split('/');
  const [g, v, k] = parts.length === 2 ? ['', ...parts] : parts;
  const message = model.kind({ group: g!, version: v!, kind: k! })?.message;
  assert.ok(message?.tableColumns?.length, `${key} declares columns`);
  const t = toTable(message, [obj], { apiVersion: 'meta.orch.io/v1', includeObject: 'None', now });
  return {
    columns: t.columnDefinitions.map((c) => (c.priority > 0 ? `${c.name}*` : c.name)),
    cells: t.rows[0]!.cells,
  };
}

// Each row: the kind, upstream's columns (priority 1 marked *), the cells of the realistic object.
const rows: [string, string[], unknown[]][] = [
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
  [
    'networking.orch.io/v1/Ingress',
    ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age'],
    ['web', 'nginx', 'web.example.com,api.example.com', '203.0.113.20', '80, 443', '140m'],
  ],
  [
    'networking.orch.io/v1/IngressClass',
    ['Name', 'Controller', 'Parameters', 'Age'],
    ['nginx', 'k8s.io/ingress-nginx', 'IngressParameters.k8s.example.com/external-lb', '140m'],
  ],
  [
    'networking.orch.io/v1/NetworkPolicy',
    ['Name', 'Pod-Selector', 'Age'],
    ['web-allow', 'app=web', '140m'],
  ],
  [
    'discovery.orch.io/v1/EndpointSlice',
    ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age'],
    ['web-abc12', 'IPv4', '8080', '10.244.1.5', '140m'],
  ],
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
    'scheduling.orch.io/v1/PriorityClass',
    ['Name', 'Value', 'Global-Default', 'PreemptionPolicy', 'Age'],
    ['high-priority', 1000000, false, 'Never', '140m'],
  ],
  ['node.orch.io/v1/RuntimeClass', ['Name', 'Handler', 'Age'], ['gvisor', 'runsc', '140m']],
  [
    'flowcontrol.apiserver.orch.io/v1/FlowSchema',
    ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL'],
    ['service-accounts', 'workload-low', 9000, 'ByUser', '140m', 'False'],
  ],
  [
    'flowcontrol.apiserver.orch.io/v1/PriorityLevelConfiguration',
    ['Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age'],
    ['workload-low', 'Limited', 100, 128, 6, 50, '140m'],
  ],
];

for (const [key, columns, cells] of rows) {
  test(`Table of ${key}: upstream's columns and cells`, () => {
    const t = table(key);
    assert.deepEqual(t.columns, columns);
    assert.deepEqual(t.cells, cells);
  });
}

test('printPersistentVolumeClaim: an unbound claim shows no capacity or modes; a deleted one is Terminating', () => {
  const pvc = structuredClone(realisticObjects['v1/PersistentVolumeClaim']!) as any;
  delete pvc.spec.volumeName;
  pvc.metadata.deletionTimestamp = '2024-05-01T12:00:00Z';
  const { cells } = table('v1/PersistentVolumeClaim', pvc);
  assert.deepEqual(cells.slice(1, 5), ['Terminating', '', '', '']);
});

test('printIngress: hosts beyond three are counted, a rule without host is *, no TLS is port 80', () => {
  const ing = structuredClone(realisticObjects['networking.orch.io/v1/Ingress']!) as any;
  ing.spec.rules = ['a', 'b', 'c', 'd', 'e'].map((h) => ({ host: `${h}.example.com` }));
  delete ing.spec.tls;
  assert.deepEqual(table('networking.orch.io/v1/Ingress', ing).cells.slice(2, 5), [
    'a.example.com,b.example.com,c.example.com + 2 more...',
    '203.0.113.20',
    '80',
  ]);
  ing.spec.rules = [{ http: { paths: [] } }];
  assert.equal(table('networking.orch.io/v1/Ingress', ing).cells[2], '*');
  delete ing.spec.ingressClassName;
  assert.equal(table('networking.orch.io/v1/Ingress', ing).cells[1], '<none>');
});

test('printEndpointSlice: ports and addresses beyond three are counted, none is <unset>', () => {
  const s = structuredClone(realisticObjects['discovery.orch.io/v1/EndpointSlice']!) as any;
  s.endpoints = [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3', '10.0.0.4'] }];
  s.ports = [];
  const { cells } = table('discovery.orch.io/v1/EndpointSlice', s);
  assert.deepEqual(cells.slice(2, 4), ['<unset>', '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...']);
});

test('printStorageClass, printCSIDriver, printPriorityClass: unset fields print their defaults', () => {
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
  const pc = { metadata: { name: 'p' }, value: 5 };
  assert.deepEqual(table('scheduling.orch.io/v1/PriorityClass', pc).cells.slice(1, 4), [
    5,
    false,
    'PreemptLowerPriority',
  ]);
});

test('printPriorityLevelConfiguration / printFlowSchema: an exempt level and a schema without status', () => {
  const pl = { metadata: { name: 'exempt' }, spec: { type: 'Exempt', exempt: {} } };
  assert.deepEqual(
    table('flowcontrol.apiserver.orch.io/v1/PriorityLevelConfiguration', pl).cells.slice(1, 6),
    ['Exempt', '<none>', '<none>', '<none>', '<none>']
  );
  const fs = {
    metadata: { name: 'f' },
    spec: { priorityLevelConfiguration: { name: 'x' }, matchingPrecedence: 1 },
  };
  assert.deepEqual(table('flowcontrol.apiserver.orch.io/v1/FlowSchema', fs).cells.slice(1), [
    'x',
    1,
    '<none>',
    '<unknown>',
    '?',
  ]);
});
