// Table columns of the workload and autoscaling kinds, cell by cell as kubectl's printers
// (k8s pkg/printers/internalversion/printers.go) print the realistic objects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinSchemaModel } from './schema-model.js';
import { toTable } from './to-table.js';
import { realisticObjects } from '../testdata/index.js';

const model = builtinSchemaModel();
const now = Date.parse('2024-05-01T12:00:00Z');
const created = '2024-05-01T10:00:00Z';

const gvk = (key: string) => {
  const parts = key.split('/');
  const kind = parts.pop()!;
  const version = parts.pop()!;
  return { group: parts[0] ?? '', version, kind };
};

function table(key: string, patch?: (o: any) => void) {
  const o: any = structuredClone(realisticObjects[key]);
  o.metadata.creationTimestamp = created;
  patch?.(o);
  const t = toTable(model.kind(gvk(key))?.message, [o], {
    apiVersion: 'meta.orch.io/v1',
    includeObject: 'None',
    now,
  });
  return {
    columns: t.columnDefinitions.map((c) => `${c.name}${c.priority ? '*' : ''}`),
    row: t.rows[0]!.cells,
  };
}

const rows: [string, string[], unknown[], ((o: any) => void)?][] = [
  [
    'v1/PodTemplate',
    ['Name', 'Containers', 'Images', 'Pod Labels'],
    ['batch-worker', 'worker', 'registry.example.com/worker:2.0.1', 'app=worker'],
  ],
  [
    'v1/ReplicationController',
    ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers*', 'Images*', 'Selector*'],
    ['legacy-web', 3, 3, 2, '120m', 'legacy-web', 'nginx:1.25', 'app=legacy-web'],
  ],
  [
    'v1/Endpoints',
    ['Name', 'Endpoints', 'Age'],
    ['web', '10.244.1.5:8080,10.244.2.7:8080,10.244.1.5:9090 + 1 more...', '120m'],
  ],
  [
    'v1/Endpoints',
    ['Name', 'Endpoints', 'Age'],
    ['web', '<none>', '120m'],
    (o) => delete o.subsets,
  ],
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
