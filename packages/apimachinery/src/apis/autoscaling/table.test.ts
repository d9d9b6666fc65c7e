// The Table of autoscaling's kinds, column for column and cell for cell as upstream's printers
// print the realistic objects (k8s pkg/printers/internalversion/printers.go:
// printHorizontalPodAutoscaler).
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
    'autoscaling/v2/HorizontalPodAutoscaler',
    ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'],
    [
      'web',
      'Deployment/web',
      'memory: 420Mi/500Mi, 900/1k, 12k/10k + 3 more...',
      '2',
      10,
      4,
      '120m',
    ],
  ],
  [
    'autoscaling/v1/HorizontalPodAutoscaler',
    ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'],
    ['web', 'Deployment/web', 'cpu: 90%/75%', '1', 5, 2, '120m'],
  ],
  [
    'autoscaling/v2/HorizontalPodAutoscaler',
    ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'],
    ['web', 'Deployment/web', 'cpu: <unknown>/<auto>', '<unset>', 10, 0, '120m'],
    (o) => {
      delete o.spec.minReplicas;
      delete o.status;
      o.spec.metrics = [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization' } } },
      ];
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
