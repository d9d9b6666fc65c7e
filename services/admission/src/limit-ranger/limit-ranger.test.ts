// Table tests of LimitRanger (upstream admission_test.go): defaults set on containers with the
// annotation, and min, max and ratio refusals for Container, Pod and PersistentVolumeClaim with
// upstream's messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '@orch/apimachinery/meta';
import {
  aggregateMessage,
  applyPodDefaults,
  claimLimitErrors,
  limitRangerAnnotation,
  podLimitErrors,
} from './limit-ranger.js';

const range = (...limits: Record<string, unknown>[]): ApiObject => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name: 'lr', namespace: 'ns' },
  spec: { limits },
});
const container = (name: string, requests?: object, limits?: object) => ({
  name,
  image: 'nginx',
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
});
const pod = (containers: object[], initContainers?: object[]): ApiObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers, ...(initContainers ? { initContainers } : {}) },
});

const defaults = range({
  type: 'Container',
  default: { cpu: '500m', memory: '256Mi' },
  defaultRequest: { cpu: '200m', memory: '128Mi' },
});

test('defaults: unset requests and limits come from the Container item, noted in the annotation', () => {
  const p = pod(
    [container('app'), container('side', { cpu: '1' }, { cpu: '1' })],
    [container('init')]
  );
  applyPodDefaults(p, [defaults]);
  const spec = p['spec'] as {
    containers: { resources: unknown }[];
    initContainers: { resources: unknown }[];
  };
  assert.deepEqual(spec.containers[0]!.resources, {
    limits: { cpu: '500m', memory: '256Mi' },
    requests: { cpu: '200m', memory: '128Mi' },
  });
  assert.deepEqual(spec.containers[1]!.resources, {
    limits: { cpu: '1', memory: '256Mi' },
    requests: { cpu: '1', memory: '128Mi' },
  });
  assert.deepEqual(spec.initContainers[0]!.resources, {
    limits: { cpu: '500m', memory: '256Mi' },
    requests: { cpu: '200m', memory: '128Mi' },
  });
  assert.equal(
    p.metadata.annotations?.[limitRangerAnnotation],
    'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app; memory request for container side; memory limit for container side; cpu, memory request for init container init; cpu, memory limit for init container init'
  );
});

test('defaults: a limit without a request makes the request, not the default request', () => {
  const p = pod([container('app', undefined, { cpu: '300m' })]);
  applyPodDefaults(p, [defaults]);
  assert.deepEqual(
    (p['spec'] as { containers: { resources: unknown }[] }).containers[0]!.resources,
    {
      limits: { cpu: '300m', memory: '256Mi' },
      requests: { cpu: '300m', memory: '128Mi' },
    }
  );
});

test('defaults: nothing to set, no annotation', () => {
  const p = pod([container('app', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })]);
  applyPodDefaults(p, [defaults]);
  assert.equal(p.metadata.annotations, undefined);
});

test('pod limits: min, max and ratio refusals with upstream messages', () => {
  const rows: { name: string; range: ApiObject; pod: ApiObject; want: string[] }[] = [
    {
      name: 'within bounds',
      range: range({ type: 'Container', min: { cpu: '100m' }, max: { cpu: '1' } }),
      pod: pod([container('a', { cpu: '200m' }, { cpu: '500m' })]),
      want: [],
    },
    {
      name: 'Container min: request below',
      range: range({ type: 'Container', min: { cpu: '100m' } }),
      pod: pod([container('a', { cpu: '50m' }, { cpu: '500m' })]),
      want: ['minimum cpu usage per Container is 100m, but request is 50m'],
    },
    {
      name: 'Container min: no request',
      range: range({ type: 'Container', min: { memory: '4Mi' } }),
      pod: pod([container('a')]),
      want: ['minimum memory usage per Container is 4Mi.  No request is specified'],
    },
    {
      name: 'Container max: limit above',
      range: range({ type: 'Container', max: { memory: '1Gi' } }),
      pod: pod([container('a', { memory: '512Mi' }, { memory: '2Gi' })]),
      want: ['maximum memory usage per Container is 1Gi, but limit is 2Gi'],
    },
    {
      name: 'Container max: no limit',
      range: range({ type: 'Container', max: { cpu: '2' } }),
      pod: pod([container('a', { cpu: '1' })]),
      want: ['maximum cpu usage per Container is 2.  No limit is specified'],
    },
    {
      name: 'Container ratio above',
      range: range({ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }),
      pod: pod([container('a', { cpu: '100m' }, { cpu: '500m' })]),
      want: ['cpu max limit to request ratio per Container is 2, but provided ratio is 5.000000'],
    },
    {
      name: 'Container ratio without request',
      range: range({ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }),
      pod: pod([container('a')]),
      want: [
        'cpu max limit to request ratio per Container is 2, but no request is specified or request is 0',
      ],
    },
    {
      name: 'Pod max over the sum of containers',
      range: range({ type: 'Pod', max: { cpu: '1' } }),
      pod: pod([
        container('a', { cpu: '600m' }, { cpu: '600m' }),
        container('b', { cpu: '600m' }, { cpu: '600m' }),
      ]),
      want: ['maximum cpu usage per Pod is 1, but limit is 1200m'],
    },
    {
      name: 'Pod min: init containers count by their max',
      range: range({ type: 'Pod', min: { cpu: '1' } }),
      pod: pod(
        [container('a', { cpu: '100m' }, { cpu: '100m' })],
        [container('i', { cpu: '2' }, { cpu: '2' })]
      ),
      want: [],
    },
  ];
  for (const row of rows)
    assert.deepEqual(podLimitErrors(row.pod, [row.range]), row.want, row.name);
});

test('claim limits: min and max on the requested storage', () => {
  const claim = (storage?: string): ApiObject => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'c', namespace: 'ns' },
    spec: { resources: storage ? { requests: { storage } } : {} },
  });
  const r = range({
    type: 'PersistentVolumeClaim',
    min: { storage: '1Gi' },
    max: { storage: '10Gi' },
  });
  const rows: [string, ApiObject, string[]][] = [
    ['within', claim('5Gi'), []],
    [
      'below',
      claim('500Mi'),
      ['minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi'],
    ],
    [
      'above',
      claim('20Gi'),
      ['maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi'],
    ],
    [
      'no request',
      claim(),
      [
        'minimum storage usage per PersistentVolumeClaim is 1Gi.  No request is specified',
        'maximum storage usage per PersistentVolumeClaim is 10Gi.  No request is specified',
      ],
    ],
  ];
  for (const [name, c, want] of rows) assert.deepEqual(claimLimitErrors(c, [r]), want, name);
});

test('several refusals read as upstream’s aggregate: deduplicated, in brackets', () => {
  assert.equal(aggregateMessage(['a']), 'a');
  assert.equal(aggregateMessage(['a', 'a']), 'a');
  assert.equal(aggregateMessage(['a', 'b']), '[a, b]');
});
