// The Table of batch's kinds, column for column and cell for cell as upstream's printers print the
// realistic objects (k8s pkg/printers/internalversion/printers.go: printJob, printCronJob).
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
    'batch/v1/Job',
    ['Name', 'Status', 'Completions', 'Duration', 'Age', 'Containers*', 'Images*', 'Selector*'],
    [
      'report-28571234',
      'Complete',
      '4/4',
      '5m',
      '120m',
      'report',
      'registry.example.com/report:1.0',
      'batch.kubernetes.io/controller-uid=j1',
    ],
  ],
  // A running job without completions: succeeded/1 of parallelism, duration up to now.
  [
    'batch/v1/Job',
    ['Name', 'Status', 'Completions', 'Duration', 'Age', 'Containers*', 'Images*', 'Selector*'],
    [
      'report-28571234',
      'Running',
      '0/1 of 2',
      '120m',
      '120m',
      'report',
      'registry.example.com/report:1.0',
      'batch.kubernetes.io/controller-uid=j1',
    ],
    (o) => {
      delete o.spec.completions;
      o.status = { startTime: created };
    },
  ],
  [
    'batch/v1/CronJob',
    [
      'Name',
      'Schedule',
      'Timezone',
      'Suspend',
      'Active',
      'Last Schedule',
      'Age',
      'Containers*',
      'Images*',
      'Selector*',
    ],
    [
      'report',
      '*/15 * * * *',
      'Europe/Paris',
      'False',
      1,
      '120m',
      '120m',
      'report',
      'registry.example.com/report:1.0',
      '<none>',
    ],
  ],
  [
    'batch/v1/CronJob',
    [
      'Name',
      'Schedule',
      'Timezone',
      'Suspend',
      'Active',
      'Last Schedule',
      'Age',
      'Containers*',
      'Images*',
      'Selector*',
    ],
    [
      'report',
      '*/15 * * * *',
      '<none>',
      '<unset>',
      0,
      '<none>',
      '120m',
      'report',
      'registry.example.com/report:1.0',
      '<none>',
    ],
    (o) => {
      delete o.spec.timeZone;
      delete o.spec.suspend;
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
