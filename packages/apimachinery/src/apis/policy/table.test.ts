// The Table of policy's kinds, column for column and cell for cell as upstream's printers print the
// realistic objects (k8s pkg/printers/internalversion/printers.go: printPodDisruptionBudget).
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
    'policy/v1/PodDisruptionBudget',
    ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age'],
    ['web', '2', 'N/A', 1, '120m'],
  ],
  [
    'policy/v1/PodDisruptionBudget',
    ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age'],
    ['web', 'N/A', '25%', 0, '120m'],
    (o) => {
      delete o.spec.minAvailable;
      o.spec.maxUnavailable = '25%';
      delete o.status;
    },
  ],
];

for (const [key, columns, row, patch] of rows) {
  test(`${key} Table columns and cells as kubectl prints them${patch ? ' (variant)' : ''}`, () => {
    const t = table(key, patch);
    assert.deepEqual(t.columns, columns);
    assert.deepEqual(t.row, row);
  });
}
