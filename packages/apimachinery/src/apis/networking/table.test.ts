// The Table of networking.orch.io's kinds, column for column and cell for cell as upstream's
// printers print the realistic objects (k8s pkg/printers/internalversion/printers.go: printIngress,
// printIngressClass, printNetworkPolicy).
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
];

for (const [key, columns, cells] of rows) {
  test(`Table of ${key}: upstream's columns and cells`, () => {
    const t = table(key);
    assert.deepEqual(t.columns, columns);
    assert.deepEqual(t.cells, cells);
  });
}

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
