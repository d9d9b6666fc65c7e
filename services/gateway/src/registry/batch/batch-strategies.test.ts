// The batch strategies' validation (Jobs, CronJobs), the Job's generated selector and cron
// schedules as table tests: each row a realistic object (from
// @orch/apimachinery's realistic objects) with one change, and the field errors upstream's
// validation answers for it (field path, type, message); the strategies are the provider's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realisticObjects } from '@orch/apimachinery/testdata';
import type { ApiObject } from '@orch/apimachinery/meta';
import { batchProvider } from './rest-storage-provider.js';
import { cronScheduleError } from './cronjobs/cron-schedule.js';
import { fieldErrors, providedStrategy, testStrategyRows } from '../strategy-test-kit.js';
import type { StrategyRow } from '../strategy-test-kit.js';

const obj = (key: string, change: (o: any) => void = () => {}): ApiObject => {
  const o: any = structuredClone(realisticObjects[key]);
  o.metadata.uid ??= 'uid-1';
  change(o);
  return o as ApiObject;
};

const job = 'batch/v1/Job';
const cj = 'batch/v1/CronJob';
// A Job as the strategy leaves it on create: the selector generated from its uid.
const jobWithUid = (change: (o: any) => void = () => {}) =>
  obj(job, (o) => {
    o.metadata.uid = 'j1';
    o.spec.manualSelector = false;
    o.spec.template.metadata.labels['batch.kubernetes.io/controller-uid'] = 'j1';
    change(o);
  });

const rows: StrategyRow[] = [
  ['valid Job', 'batch/jobs', jobWithUid(), []],
  ['valid CronJob', 'batch/cronjobs', obj(cj), []],
  [
    'Job: the selector is immutable',
    'batch/jobs',
    jobWithUid((o) => (o.spec.selector.matchLabels.extra = 'x')),
    ['spec.selector: FieldValueInvalid: field is immutable'],
    jobWithUid(),
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
];

testStrategyRows(batchProvider, rows);

test('the Job strategy generates the selector and template labels from the uid and name', () => {
  const j = obj(job, (o) => {
    delete o.spec.selector;
    delete o.spec.manualSelector;
    o.spec.template.metadata.labels = { app: 'report' };
  });
  j.metadata.uid = 'u-7';
  providedStrategy(batchProvider, 'jobs').prepareForCreate(j);
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
  assert.deepEqual(fieldErrors(providedStrategy(batchProvider, 'jobs'), j), []);
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
