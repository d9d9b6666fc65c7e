import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinSchemaModel } from './schema-model.js';
import { humanDuration, tablePrinterNames, toTable } from './to-table.js';
import { realisticObjects, realisticPod } from '../testdata/index.js';

const model = builtinSchemaModel();
const now = Date.parse('2024-05-01T12:20:30Z');

test('every column source names an existing printer', () => {
  for (const m of model.allMessages()) {
    for (const c of m.tableColumns ?? []) {
      if (c.source.startsWith('@'))
        assert.ok(tablePrinterNames.includes(c.source.slice(1)), `${m.name}: ${c.source}`);
      else assert.match(c.source, /^(\.[A-Za-z]+)+$/);
    }
  }
});

test('pod rows: Name, Ready, Status, Restarts, Age, then the wide columns', () => {
  const pod = model.kind({ group: '', version: 'v1', kind: 'Pod' })?.message;
  const t = toTable(pod, [realisticPod], {
    apiVersion: 'meta.orch.io/v1',
    includeObject: 'Metadata',
    now,
    listMeta: { resourceVersion: '9' },
  });
  assert.equal(t.kind, 'Table');
  assert.equal(t.apiVersion, 'meta.orch.io/v1');
  assert.deepEqual(t.metadata, { resourceVersion: '9' });
  assert.deepEqual(
    t.columnDefinitions.map((c) => [c.name, c.priority]),
    [
      ['Name', 0],
      ['Ready', 0],
      ['Status', 0],
      ['Restarts', 0],
      ['Age', 0],
      ['IP', 1],
      ['Node', 1],
      ['Nominated Node', 1],
      ['Readiness Gates', 1],
    ]
  );
  assert.equal(t.columnDefinitions[0]?.format, 'name');
  assert.deepEqual(t.rows[0]?.cells, [
    'web-7d9f8b6c5d-x2x4z',
    '1/1',
    'Running',
    '2 (119m ago)',
    '120m',
    '10.244.1.7',
    'node-1',
    '<none>',
    '0/1',
  ]);
  assert.deepEqual(t.rows[0]?.object, {
    kind: 'PartialObjectMetadata',
    apiVersion: 'meta.orch.io/v1',
    metadata: realisticPod.metadata,
  });
});

test('default columns Name and Created At; includeObject None and Object', () => {
  const cm = realisticObjects['v1/ConfigMap']!;
  const none = toTable(undefined, [cm], {
    apiVersion: 'meta.orch.io/v1',
    includeObject: 'None',
    now,
  });
  assert.deepEqual(
    none.columnDefinitions.map((c) => [c.name, c.type]),
    [
      ['Name', 'string'],
      ['Created At', 'date'],
    ]
  );
  assert.deepEqual(none.rows, [{ cells: ['web-config', '2024-05-01T10:00:00Z'] }]);
  const full = toTable(model.kind({ group: '', version: 'v1', kind: 'ConfigMap' })?.message, [cm], {
    apiVersion: 'meta.orch.io/v1',
    includeObject: 'Object',
    now,
  });
  assert.deepEqual(full.rows[0]?.cells, ['web-config', 3, '140m']);
  assert.deepEqual(full.rows[0]?.object, cm);
});

test('cells of namespaces, services, nodes, events, deployments and leases', () => {
  const row = (key: string): unknown[] => {
    const obj = realisticObjects[key]!;
    const [g, v, k] = key.split('/').length === 2 ? ['', ...key.split('/')] : key.split('/');
    return toTable(model.kind({ group: g!, version: v!, kind: k! })?.message, [obj], {
      apiVersion: 'meta.orch.io/v1',
      includeObject: 'None',
      now,
    }).rows[0]!.cells;
  };
  assert.deepEqual(row('v1/Namespace'), ['team-a', 'Terminating', '140m']);
  assert.deepEqual(row('v1/Service'), [
    'web',
    'LoadBalancer',
    '10.96.0.12',
    '203.0.113.10',
    '80:30080/TCP,9090/TCP',
    '<unknown>',
    'app=web',
  ]);
  assert.deepEqual(row('v1/Node'), [
    'node-1',
    'Ready,SchedulingDisabled',
    'control-plane',
    '<unknown>',
    'v1.30.0',
    '192.168.1.10',
    '<none>',
    'Debian GNU/Linux 12',
    '6.1.0',
    'containerd://1.7.0',
  ]);
  assert.deepEqual(row('v1/Event'), [
    'web.17c1',
    '114m',
    'Normal',
    'Pulled',
    'pod/web',
    'Container image already present on machine',
    'kubelet, node-1',
    '119m',
    3,
    'web.17c1',
  ]);
  assert.deepEqual(row('apps/v1/Deployment'), [
    'web',
    '2/0',
    3,
    2,
    '<unknown>',
    'web',
    'registry.example.com/web:1.2.3',
    'app=web,tier notin (db)',
  ]);
  assert.deepEqual(row('coordination.orch.io/v1/Lease'), [
    'controller-manager',
    'cm-1_abc',
    '<unknown>',
  ]);
});

test('human durations as kubectl prints them', () => {
  assert.deepEqual(
    [45e3, 330e3, 3600e3 * 2, 3600e3 * 5.5, 3600e3 * 30, 3600e3 * 24 * 3, 3600e3 * 24 * 400].map(
      humanDuration
    ),
    ['45s', '5m30s', '120m', '5h30m', '30h', '3d', '400d']
  );
});

test('certificatesigningrequests: upstream printCertificateSigningRequest and extractCSRStatus', () => {
  const message = model.kind({
    group: 'certificates.orch.io',
    version: 'v1',
    kind: 'CertificateSigningRequest',
  })?.message;
  const base = realisticObjects['certificates.orch.io/v1/CertificateSigningRequest']!;
  const csr = (spec: Record<string, unknown>, status: Record<string, unknown>) => ({
    ...base,
    metadata: { name: 'c', creationTimestamp: '2024-05-01T12:00:00Z' },
    spec: { ...(base['spec'] as object), ...spec },
    status,
  });
  const cond = (type: string) => ({ type, status: 'True' });
  const rows = toTable(
    message,
    [
      csr({}, {}),
      csr(
        { expirationSeconds: undefined },
        { conditions: [cond('Approved')], certificate: 'QQ==' }
      ),
      csr({ signerName: '' }, { conditions: [cond('Denied'), cond('Failed')] }),
    ],
    { apiVersion: 'meta.orch.io/v1', includeObject: 'None', now }
  );
  assert.deepEqual(
    rows.columnDefinitions.map((c) => c.name),
    ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']
  );
  assert.deepEqual(
    rows.rows.map((r) => r.cells),
    [
      [
        'c',
        '20m',
        'orch.io/apiserver-client-node-agent',
        'system:bootstrap:abcdef',
        '24h',
        'Pending',
      ],
      [
        'c',
        '20m',
        'orch.io/apiserver-client-node-agent',
        'system:bootstrap:abcdef',
        '<none>',
        'Approved,Issued',
      ],
      ['c', '20m', '<none>', 'system:bootstrap:abcdef', '24h', 'Denied,Failed'],
    ]
  );
});
