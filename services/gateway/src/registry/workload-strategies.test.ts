// The workload strategies' validation as table tests: each row a realistic object (from
// @orch/apimachinery's realistic objects) with one change, and the field errors upstream's
// validation answers for it (field path, type, message).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realisticObjects } from '@orch/apimachinery/schema-model';
import type { ApiObject } from '@orch/apimachinery/meta';
import { builtinResources } from '@orch/apimachinery/registry';
import { appsProvider } from './apps/rest-storage-provider.js';
import { autoscalingProvider } from './autoscaling/rest-storage-provider.js';
import { batchProvider } from './batch/rest-storage-provider.js';
import { coreProvider } from './core/rest-storage-provider.js';
import { policyProvider } from './policy/rest-storage-provider.js';
import { storedResource, strategyOf } from './rest-storage.js';
import type { Strategy } from './strategy.js';
import { cronScheduleError } from './batch/cronjobs/cron-schedule.js';

const obj = (key: string, change: (o: any) => void = () => {}): ApiObject => {
  const o: any = structuredClone(realisticObjects[key]);
  o.metadata.uid ??= 'uid-1';
  change(o);
  return o as ApiObject;
};
const providers = [
  coreProvider(),
  appsProvider,
  batchProvider,
  autoscalingProvider,
  policyProvider,
];
/** The strategy the gateway's Store of `<group>/<resource>` writes with. */
const strategyFor = (resource: string): Strategy => {
  const def = builtinResources.find((d) => `${d.group}/${d.resource}` === resource);
  assert.ok(def, resource);
  return strategyOf(storedResource(providers, def), def);
};
const errs = (resource: string, o: ApiObject, old?: ApiObject) => {
  const s = strategyFor(resource);
  return (old ? s.validateUpdate(o, old) : s.validate(o)).map(
    (e) => `${e.field}: ${e.type}${e.message ? `: ${e.message}` : ''}`
  );
};

type Row = [name: string, resource: string, o: ApiObject, expected: string[], old?: ApiObject];

const sts = 'apps/v1/StatefulSet';
const ds = 'apps/v1/DaemonSet';
const job = 'batch/v1/Job';
const cj = 'batch/v1/CronJob';
const rc = 'v1/ReplicationController';
const hpa = 'autoscaling/v2/HorizontalPodAutoscaler';
const pdb = 'policy/v1/PodDisruptionBudget';
// A Job as the strategy leaves it on create: the selector generated from its uid.
const jobWithUid = (change: (o: any) => void = () => {}) =>
  obj(job, (o) => {
    o.metadata.uid = 'j1';
    o.spec.manualSelector = false;
    o.spec.template.metadata.labels['batch.kubernetes.io/controller-uid'] = 'j1';
    change(o);
  });

const rows: Row[] = [
  // realistic objects are valid
  ['valid StatefulSet', 'apps/statefulsets', obj(sts), []],
  ['valid DaemonSet', 'apps/daemonsets', obj(ds), []],
  ['valid ControllerRevision', 'apps/controllerrevisions', obj('apps/v1/ControllerRevision'), []],
  ['valid Job', 'batch/jobs', jobWithUid(), []],
  ['valid CronJob', 'batch/cronjobs', obj(cj), []],
  ['valid ReplicationController', '/replicationcontrollers', obj(rc), []],
  ['valid PodTemplate', '/podtemplates', obj('v1/PodTemplate'), []],
  ['valid Endpoints', '/endpoints', obj('v1/Endpoints'), []],
  ['valid HPA', 'autoscaling/horizontalpodautoscalers', obj(hpa), []],
  ['valid PDB', 'policy/poddisruptionbudgets', obj(pdb), []],
  // immutable selectors (issue 18: spec.selector: Invalid value: ...: field is immutable)
  ...(
    [
      ['apps/deployments', 'apps/v1/Deployment'],
      ['apps/replicasets', 'apps/v1/ReplicaSet'],
      ['apps/statefulsets', sts],
      ['apps/daemonsets', ds],
    ] as const
  ).map(([resource, key]): Row => [
    `${key}: the selector is immutable`,
    resource,
    obj(key, (o) => {
      o.spec.selector = { matchLabels: { app: 'other' } };
      o.spec.template.metadata.labels = { app: 'other' };
    }),
    ['spec.selector: FieldValueInvalid: field is immutable'],
    obj(key),
  ]),
  [
    'Job: the selector is immutable',
    'batch/jobs',
    jobWithUid((o) => (o.spec.selector.matchLabels.extra = 'x')),
    ['spec.selector: FieldValueInvalid: field is immutable'],
    jobWithUid(),
  ],
  // StatefulSet
  [
    'StatefulSet: selector does not match the template',
    'apps/statefulsets',
    obj(sts, (o) => (o.spec.template.metadata.labels = { app: 'x' })),
    [
      'spec.template.metadata.labels: FieldValueInvalid: `selector` does not match template `labels`',
    ],
  ],
  [
    'StatefulSet: empty selector',
    'apps/statefulsets',
    obj(sts, (o) => (o.spec.selector = {})),
    ['spec.selector: FieldValueInvalid: empty selector is invalid for statefulset'],
  ],
  [
    'StatefulSet: restart policy Never',
    'apps/statefulsets',
    obj(sts, (o) => (o.spec.template.spec.restartPolicy = 'Never')),
    ['spec.template.spec.restartPolicy: FieldValueNotSupported: supported values: "Always"'],
  ],
  [
    'StatefulSet: negative replicas, unknown pod management policy',
    'apps/statefulsets',
    obj(sts, (o) => {
      o.spec.replicas = -1;
      o.spec.podManagementPolicy = 'Fast';
    }),
    [
      "spec.podManagementPolicy: FieldValueInvalid: must be 'OrderedReady' or 'Parallel'",
      'spec.replicas: FieldValueInvalid: must be greater than or equal to 0',
    ],
  ],
  [
    'StatefulSet: OnDelete with rollingUpdate',
    'apps/statefulsets',
    obj(sts, (o) => (o.spec.updateStrategy.type = 'OnDelete')),
    [
      "spec.updateStrategy.rollingUpdate: FieldValueInvalid: only allowed for updateStrategy 'RollingUpdate'",
    ],
  ],
  [
    'StatefulSet: serviceName may not change',
    'apps/statefulsets',
    obj(sts, (o) => (o.spec.serviceName = 'db2')),
    [
      "spec: FieldValueForbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ],
    obj(sts),
  ],
  [
    'StatefulSet: replicas, template and update strategy may change',
    'apps/statefulsets',
    obj(sts, (o) => {
      o.spec.replicas = 5;
      o.spec.template.spec.containers[0].image = 'postgres:17';
      o.spec.updateStrategy = { type: 'OnDelete' };
    }),
    [],
    obj(sts),
  ],
  // DaemonSet
  [
    'DaemonSet: missing selector and template',
    'apps/daemonsets',
    obj(ds, (o) => {
      delete o.spec.selector;
      delete o.spec.template;
    }),
    ['spec.selector: FieldValueRequired', 'spec.template: FieldValueRequired'],
  ],
  [
    'DaemonSet: maxUnavailable and maxSurge both 0',
    'apps/daemonsets',
    obj(ds, (o) => (o.spec.updateStrategy.rollingUpdate = { maxUnavailable: 0, maxSurge: 0 })),
    [
      'spec.updateStrategy.rollingUpdate.maxUnavailable: FieldValueInvalid: may not be 0 when `maxSurge` is 0',
    ],
  ],
  [
    'DaemonSet: a percentage over 100%',
    'apps/daemonsets',
    obj(ds, (o) => (o.spec.updateStrategy.rollingUpdate = { maxUnavailable: '150%', maxSurge: 0 })),
    [
      'spec.updateStrategy.rollingUpdate.maxUnavailable: FieldValueInvalid: must not be greater than 100%',
    ],
  ],
  [
    'DaemonSet: activeDeadlineSeconds in the template',
    'apps/daemonsets',
    obj(ds, (o) => (o.spec.template.spec.activeDeadlineSeconds = 10)),
    [
      'spec.template.spec.activeDeadlineSeconds: FieldValueForbidden: activeDeadlineSeconds in DaemonSet is not Supported',
    ],
  ],
  // ControllerRevision
  [
    'ControllerRevision: data is mandatory, revision non-negative',
    'apps/controllerrevisions',
    obj('apps/v1/ControllerRevision', (o) => {
      delete o.data;
      o.revision = -1;
    }),
    [
      'data: FieldValueRequired: data is mandatory',
      'revision: FieldValueInvalid: must be greater than or equal to 0',
    ],
  ],
  [
    'ControllerRevision: data is immutable',
    'apps/controllerrevisions',
    obj('apps/v1/ControllerRevision', (o) => (o.data = { spec: {} })),
    ['data: FieldValueInvalid: field is immutable'],
    obj('apps/v1/ControllerRevision'),
  ],
  // Job
  [
    'Job: restart policy Always',
    'batch/jobs',
    jobWithUid((o) => (o.spec.template.spec.restartPolicy = 'Always')),
    [
      'spec.template.spec.restartPolicy: FieldValueNotSupported: supported values: "OnFailure", "Never"',
    ],
  ],
  [
    'Job: a selector not generated',
    'batch/jobs',
    jobWithUid((o) => {
      o.spec.selector = { matchLabels: { app: 'mine' } };
      o.spec.template.metadata.labels.app = 'mine';
    }),
    ['spec.selector: FieldValueInvalid: `selector` not auto-generated'],
  ],
  [
    "Job: a manual selector is the client's",
    'batch/jobs',
    jobWithUid((o) => {
      o.spec.manualSelector = true;
      o.spec.selector = { matchLabels: { app: 'mine' } };
      o.spec.template.metadata.labels.app = 'mine';
    }),
    [],
  ],
  [
    'Job: negative counts, Indexed without completions',
    'batch/jobs',
    jobWithUid((o) => {
      o.spec.parallelism = -1;
      o.spec.backoffLimit = -2;
      o.spec.completionMode = 'Indexed';
      delete o.spec.completions;
    }),
    [
      'spec.parallelism: FieldValueInvalid: must be greater than or equal to 0',
      'spec.backoffLimit: FieldValueInvalid: must be greater than or equal to 0',
      'spec.completions: FieldValueRequired: when completion mode is Indexed',
    ],
  ],
  [
    'Job: the template may not change unless suspended',
    'batch/jobs',
    jobWithUid((o) => (o.spec.template.spec.containers[0].image = 'other:1')),
    ['spec.template: FieldValueInvalid: field is immutable'],
    jobWithUid(),
  ],
  [
    "Job: a suspended job's template may change",
    'batch/jobs',
    jobWithUid((o) => {
      o.spec.suspend = true;
      o.spec.template.spec.containers[0].image = 'other:1';
    }),
    [],
    jobWithUid((o) => (o.spec.suspend = true)),
  ],
  // CronJob
  [
    'CronJob: a schedule with four fields',
    'batch/cronjobs',
    obj(cj, (o) => (o.spec.schedule = '* * * *')),
    ['spec.schedule: FieldValueInvalid: expected exactly 5 fields, found 4: [* * * *]'],
  ],
  [
    'CronJob: an unknown time zone, TZ in the schedule as well',
    'batch/cronjobs',
    obj(cj, (o) => {
      o.spec.schedule = 'TZ=UTC */5 * * * *';
      o.spec.timeZone = 'Mars/Olympus';
    }),
    [
      'spec.timeZone: FieldValueInvalid: cannot use both timeZone field and TZ or CRON_TZ in schedule',
      'spec.timeZone: FieldValueInvalid: unknown time zone Mars/Olympus',
    ],
  ],
  [
    'CronJob: unknown concurrency policy, a selector in the job template',
    'batch/cronjobs',
    obj(cj, (o) => {
      o.spec.concurrencyPolicy = 'Sometimes';
      o.spec.jobTemplate.spec.selector = { matchLabels: { a: 'b' } };
    }),
    [
      'spec.concurrencyPolicy: FieldValueNotSupported: supported values: "Allow", "Forbid", "Replace"',
      'spec.jobTemplate.spec.selector: FieldValueInvalid: `selector` will be auto-generated',
    ],
  ],
  [
    'CronJob: a name over 52 characters',
    'batch/cronjobs',
    obj(cj, (o) => (o.metadata.name = 'x'.repeat(53))),
    ['metadata.name: FieldValueInvalid: must be no more than 52 characters'],
  ],
  // ReplicationController
  [
    'ReplicationController: empty selector, restart policy OnFailure',
    '/replicationcontrollers',
    obj(rc, (o) => {
      o.spec.selector = {};
      o.spec.template.spec.restartPolicy = 'OnFailure';
    }),
    [
      'spec.selector: FieldValueRequired',
      'spec.template.spec.restartPolicy: FieldValueNotSupported: supported values: "Always"',
    ],
  ],
  [
    'ReplicationController: the selector does not match the template',
    '/replicationcontrollers',
    obj(rc, (o) => (o.spec.selector = { app: 'other' })),
    [
      'spec.template.metadata.labels: FieldValueInvalid: `selector` does not match template `labels`',
    ],
  ],
  [
    'ReplicationController status: ready above replicas',
    '/replicationcontrollers',
    obj(rc, (o) => (o.status.readyReplicas = 4)),
    ['status.readyReplicas: FieldValueInvalid: cannot be greater than status.replicas'],
    obj(rc),
  ],
  // Endpoints
  [
    'Endpoints: loopback address, an unnamed port among two, a bad protocol',
    '/endpoints',
    obj('v1/Endpoints', (o) => {
      o.subsets[0].addresses[1].ip = '127.0.0.1';
      delete o.subsets[0].ports[1].name;
      o.subsets[0].ports[0].protocol = 'HTTP';
    }),
    [
      'subsets[0].addresses[1].ip: FieldValueInvalid: may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'subsets[0].ports[0].protocol: FieldValueNotSupported: supported values: "SCTP", "TCP", "UDP"',
      'subsets[0].ports[1].name: FieldValueRequired',
    ],
  ],
  [
    'Endpoints: a subset without addresses, a port out of range',
    '/endpoints',
    obj('v1/Endpoints', (o) => (o.subsets = [{ ports: [{ port: 70000, protocol: 'TCP' }] }])),
    [
      'subsets[0]: FieldValueRequired: must specify `addresses` or `notReadyAddresses`',
      'subsets[0].ports[0].port: FieldValueInvalid: must be between 1 and 65535, inclusive',
    ],
  ],
  // HPA (v2, the storage version)
  [
    'HPA: maxReplicas below minReplicas, scaleTargetRef without a name',
    'autoscaling/horizontalpodautoscalers',
    obj(hpa, (o) => {
      o.spec.maxReplicas = 1;
      delete o.spec.scaleTargetRef.name;
    }),
    [
      'spec.maxReplicas: FieldValueInvalid: must be greater than or equal to `minReplicas`',
      'spec.scaleTargetRef.name: FieldValueRequired',
    ],
  ],
  [
    'HPA: a Resource metric with both targets, a metric with two sources',
    'autoscaling/horizontalpodautoscalers',
    obj(hpa, (o) => {
      o.spec.metrics = [
        {
          type: 'Resource',
          resource: {
            name: 'cpu',
            target: { type: 'Utilization', averageUtilization: 50, averageValue: '1' },
          },
        },
        {
          type: 'Pods',
          pods: { metric: { name: 'p' }, target: { type: 'AverageValue', averageValue: '1' } },
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
        },
      ];
    }),
    [
      'spec.metrics[0].resource.target.averageValue: FieldValueForbidden: may not set both a target raw value and a target utilization',
      'spec.metrics[1].resource: FieldValueForbidden: must populate the given metric source only',
    ],
  ],
  [
    'HPA: behavior with a period over 1800 s and an unknown select policy',
    'autoscaling/horizontalpodautoscalers',
    obj(hpa, (o) => {
      o.spec.behavior.scaleUp.selectPolicy = 'Median';
      o.spec.behavior.scaleDown.policies[0].periodSeconds = 3600;
    }),
    [
      'spec.behavior.scaleUp.selectPolicy: FieldValueNotSupported: supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleDown.policies[0].periodSeconds: FieldValueInvalid: must be less than or equal to 1800',
    ],
  ],
  // PDB
  [
    'PDB: minAvailable and maxUnavailable both set',
    'policy/poddisruptionbudgets',
    obj(pdb, (o) => (o.spec.maxUnavailable = 1)),
    ['spec: FieldValueInvalid: minAvailable and maxUnavailable cannot be both set'],
  ],
  [
    'PDB: a percentage that is not one, an unknown eviction policy',
    'policy/poddisruptionbudgets',
    obj(pdb, (o) => {
      o.spec.minAvailable = 'half';
      o.spec.unhealthyPodEvictionPolicy = 'Never';
    }),
    [
      "spec.minAvailable: FieldValueInvalid: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      'spec.unhealthyPodEvictionPolicy: FieldValueNotSupported: supported values: "AlwaysAllow", "IfHealthyBudget"',
    ],
  ],
  [
    'PDB: the spec is mutable',
    'policy/poddisruptionbudgets',
    obj(pdb, (o) => (o.spec.minAvailable = '50%')),
    [],
    obj(pdb),
  ],
];

for (const [name, resource, o, expected, old] of rows) {
  test(`${resource} ${old ? 'update' : 'create'}: ${name}`, () => {
    assert.deepEqual(errs(resource, o, old), expected);
  });
}

test('the Job strategy generates the selector and template labels from the uid and name', () => {
  const j = obj(job, (o) => {
    delete o.spec.selector;
    delete o.spec.manualSelector;
    o.spec.template.metadata.labels = { app: 'report' };
  });
  j.metadata.uid = 'u-7';
  strategyFor('batch/jobs').prepareForCreate(j);
  const spec = j['spec'] as any;
  assert.deepEqual(spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u-7' } });
  assert.deepEqual(spec.template.metadata.labels, {
    app: 'report',
    'job-name': 'report-28571234',
    'batch.kubernetes.io/job-name': 'report-28571234',
    'controller-uid': 'u-7',
    'batch.kubernetes.io/controller-uid': 'u-7',
  });
  assert.deepEqual(j['status'], {});
  assert.deepEqual(errs('batch/jobs', j), []);
});

test('cron schedules as robfig/cron ParseStandard reads them', () => {
  for (const ok of [
    '*/15 * * * *',
    '0 0 1 jan *',
    '5 4 * * sun-sat',
    '@hourly',
    '@every 1h30m',
    'CRON_TZ=UTC 0 * * * *',
  ])
    assert.equal(cronScheduleError(ok), undefined, ok);
  assert.equal(cronScheduleError('61 * * * *'), 'end of range (61) above maximum (59): 61');
  assert.equal(cronScheduleError('@fortnightly'), 'unrecognized descriptor: @fortnightly');
  assert.equal(cronScheduleError('*/0 * * * *'), 'step of range should be a positive number: */0');
  assert.equal(
    cronScheduleError('a * * * *'),
    'failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax'
  );
});
