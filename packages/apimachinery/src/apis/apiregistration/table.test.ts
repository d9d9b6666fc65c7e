// The Table of apiregistration.orch.io's kinds, column for column and cell for cell as upstream's
// aggregator prints them (kube-aggregator pkg/registry/apiservice/etcd/etcd.go: ConvertToTable).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realisticObjects } from '../../testdata/index.js';
import { tableOf } from '../../testdata/tables.js';

const now = Date.parse('2024-05-01T12:20:30Z');
const key = 'apiregistration.orch.io/v1/APIService';

function table(obj: Record<string, unknown>) {
  const t = tableOf(key, obj, now);
  assert.ok(t.declared, `${key} declares columns`);
  return t;
}

test(`Table of ${key}: upstream's columns and cells`, () => {
  const t = table(realisticObjects[key]!);
  assert.deepEqual(t.columns, ['Name', 'Service', 'Available', 'Age']);
  assert.deepEqual(t.cells, [
    'v1beta1.metrics.orch.io',
    'kube-system/metrics-server',
    'False (MissingEndpoints)',
    '140m',
  ]);
});

test('Table of a local APIService, an available one, one without status', () => {
  const base = realisticObjects[key]!;
  const local = {
    ...base,
    metadata: { ...(base['metadata'] as object), name: 'v1.apps' },
    spec: { group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 },
    status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local' }] },
  };
  assert.deepEqual(table(local).cells.slice(1, 3), ['Local', 'True']);
  assert.deepEqual(table({ ...base, status: {} }).cells.slice(1, 3), [
    'kube-system/metrics-server',
    'Unknown',
  ]);
  const noReason = { ...base, status: { conditions: [{ type: 'Available', status: 'False' }] } };
  assert.deepEqual(table(noReason).cells[2], 'False');
});
