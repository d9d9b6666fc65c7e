// The Table of scheduling.orch.io's kinds, column for column and cell for cell as upstream's
// printers print the realistic objects (k8s pkg/printers/internalversion/printers.go:
// printPriorityClass).
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
    'scheduling.orch.io/v1/PriorityClass',
    ['Name', 'Value', 'Global-Default', 'PreemptionPolicy', 'Age'],
    ['high-priority', 1000000, false, 'Never', '140m'],
  ],
];

for (const [key, columns, cells] of rows) {
  test(`Table of ${key}: upstream's columns and cells`, () => {
    const t = table(key);
    assert.deepEqual(t.columns, columns);
    assert.deepEqual(t.cells, cells);
  });
}

test('printPriorityClass: unset fields print their defaults', () => {
  const pc = { metadata: { name: 'p' }, value: 5 };
  assert.deepEqual(table('scheduling.orch.io/v1/PriorityClass', pc).cells.slice(1, 4), [
    5,
    false,
    'PreemptLowerPriority',
  ]);
});
