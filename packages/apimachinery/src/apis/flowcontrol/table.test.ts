// The Table of flowcontrol.apiserver.orch.io's kinds, column for column and cell for cell as
// upstream's printers print the realistic objects (k8s pkg/printers/internalversion/printers.go:
// printFlowSchema, printPriorityLevelConfiguration).
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
    'flowcontrol.apiserver.orch.io/v1/FlowSchema',
    ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL'],
    ['example-service-accounts', 'example-workload-low', 9000, 'ByUser', '140m', 'False'],
  ],
  [
    'flowcontrol.apiserver.orch.io/v1/PriorityLevelConfiguration',
    ['Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age'],
    ['example-workload-low', 'Limited', 100, 128, 6, 50, '140m'],
  ],
];

for (const [key, columns, cells] of rows) {
  test(`Table of ${key}: upstream's columns and cells`, () => {
    const t = table(key);
    assert.deepEqual(t.columns, columns);
    assert.deepEqual(t.cells, cells);
  });
}

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
