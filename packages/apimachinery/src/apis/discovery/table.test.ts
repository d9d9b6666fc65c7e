// The Table of discovery.orch.io's kinds, column for column and cell for cell as upstream's
// printers print the realistic objects (k8s pkg/printers/internalversion/printers.go:
// printEndpointSlice).
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
    'discovery.orch.io/v1/EndpointSlice',
    ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age'],
    ['web-abc12', 'IPv4', '8080', '10.244.1.5', '140m'],
  ],
];

for (const [key, columns, cells] of rows) {
  test(`Table of ${key}: upstream's columns and cells`, () => {
    const t = table(key);
    assert.deepEqual(t.columns, columns);
    assert.deepEqual(t.cells, cells);
  });
}

test('printEndpointSlice: ports and addresses beyond three are counted, none is <unset>', () => {
  const s = structuredClone(realisticObjects['discovery.orch.io/v1/EndpointSlice']!) as any;
  s.endpoints = [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3', '10.0.0.4'] }];
  s.ports = [];
  const { cells } = table('discovery.orch.io/v1/EndpointSlice', s);
  assert.deepEqual(cells.slice(2, 4), ['<unset>', '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...']);
});
