// The Table of apps's kinds, column for column and cell for cell as upstream's printers print the
// realistic objects (k8s pkg/printers/internalversion/printers.go: printStatefulSet,
// printDaemonSet, printControllerRevision).
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
    'apps/v1/StatefulSet',
    ['Name', 'Ready', 'Age', 'Containers*', 'Images*'],
    ['db', '2/3', '120m', 'db', 'postgres:16'],
  ],
  [
    'apps/v1/DaemonSet',
    [
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Up-to-date',
      'Available',
      'Node Selector',
      'Age',
      'Containers*',
      'Images*',
      'Selector*',
    ],
    [
      'node-exporter',
      3,
      3,
      3,
      3,
      3,
      'kubernetes.io/os=linux',
      '120m',
      'exporter',
      'prom/node-exporter:v1.8.0',
      'app=node-exporter',
    ],
  ],
  [
    'apps/v1/ControllerRevision',
    ['Name', 'Controller', 'Revision', 'Age'],
    ['db-5d8c7b9f6', 'statefulset.apps/db', 2, '120m'],
  ],
];

for (const [key, columns, row, patch] of rows) {
  test(`${key} Table columns and cells as kubectl prints them${patch ? ' (variant)' : ''}`, () => {
    const t = table(key, patch);
    assert.deepEqual(t.columns, columns);
    assert.deepEqual(t.row, row);
  });
}
