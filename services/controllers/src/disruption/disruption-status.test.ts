// The disruption controller's computation, row by row with upstream's cases
// (pkg/controller/disruption/disruption_test.go; intstr's GetScaledValueFromIntOrPercent).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildDisruptedPodMap,
  conditionsAreUpToDate,
  countHealthyPods,
  deletionTimeoutMs,
  expectedPodCount,
  failSafeStatus,
  nextBudgetStatus,
  scaledValueFromIntOrPercent,
} from './disruption-status.js';
import type { ControllerFinder } from './disruption-status.js';
import { workloadFinders } from './pod-controller-finders.js';
import type { ScaleReader } from './pod-controller-finders.js';

type Json = Record<string, unknown>;

const ref = (kind: string, name: string, apiVersion = 'apps/v1') => ({
  apiVersion,
  kind,
  name,
  uid: `${name}-uid`,
  controller: true,
});
const pod = (
  name: string,
  o: { ready?: boolean; owner?: Json; deleting?: boolean } = {}
): Json => ({
  metadata: {
    name,
    namespace: 'ns',
    labels: { app: 'a' },
    ...(o.owner ? { ownerReferences: [o.owner] } : {}),
    ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
  },
  status: { conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
});
const workload = (name: string, replicas: number, owner?: Json): Json => ({
  metadata: {
    name,
    namespace: 'ns',
    uid: `${name}-uid`,
    ...(owner ? { ownerReferences: [owner] } : {}),
  },
  spec: { replicas },
});
const budget = (spec: Json, status: Json = {}, generation = 1): Json => ({
  metadata: { name: 'pdb', namespace: 'ns', generation },
  spec: { selector: { matchLabels: { app: 'a' } }, ...spec },
  status,
});
const noClient: ScaleReader = {
  request: () => Promise.reject(new Error('no API in this test')),
};
const finders = (objects: { [kind: string]: Json[] }): ControllerFinder[] => {
  const lookup = (kind: string) => (key: string) =>
    (objects[kind] ?? []).find((o) => `ns/${(o['metadata'] as { name: string }).name}` === key);
  return workloadFinders(
    {
      replicationControllers: lookup('rc'),
      replicaSets: lookup('rs'),
      deployments: lookup('deployment'),
      statefulSets: lookup('ss'),
    },
    noClient
  );
};

test('intstr: an int is itself; a percent of the total rounds up; other strings are errors', () => {
  assert.equal(scaledValueFromIntOrPercent(3, 10, true), 3);
  assert.equal(scaledValueFromIntOrPercent('28%', 4, true), 2);
  assert.equal(scaledValueFromIntOrPercent('28%', 4, false), 1);
  assert.equal(scaledValueFromIntOrPercent('100%', 0, true), 0);
  assert.throws(() => scaledValueFromIntOrPercent('3', 10, true), {
    message: 'invalid value for IntOrString: invalid type: string is not a percentage',
  });
  assert.throws(() => scaledValueFromIntOrPercent('x%', 10, true), /invalid value "x%"/);
});

test('integer minAvailable: expectedPods counts the selected pods, desiredHealthy is minAvailable', async () => {
  const pods = [pod('a'), pod('b'), pod('c', { ready: false })];
  const r = await expectedPodCount(budget({ minAvailable: 2 }), pods, finders({}));
  assert.deepEqual(r, { expectedCount: 3, desiredHealthy: 2, unmanagedPods: [] });
});

test('percent minAvailable counts the controllers’ scale: a ReplicaSet of 10 with 20% wants 2', async () => {
  const rs = workload('rs', 10);
  const pods = [pod('a', { owner: ref('ReplicaSet', 'rs') })];
  const r = await expectedPodCount(budget({ minAvailable: '20%' }), pods, finders({ rs: [rs] }));
  assert.deepEqual(r, { expectedCount: 10, desiredHealthy: 2, unmanagedPods: [] });
});

test('maxUnavailable counts a Deployment’s scale through its ReplicaSet, each controller once', async () => {
  const rs = workload('rs', 3, ref('Deployment', 'web'));
  const pods = ['a', 'b'].map((n) => pod(n, { owner: ref('ReplicaSet', 'rs') }));
  const objs = { rs: [rs], deployment: [workload('web', 5)] };
  const r = await expectedPodCount(budget({ maxUnavailable: 1 }), pods, finders(objs));
  assert.deepEqual(r, { expectedCount: 5, desiredHealthy: 4, unmanagedPods: [] });
  const pct = await expectedPodCount(budget({ maxUnavailable: '50%' }), pods, finders(objs));
  assert.deepEqual(pct, { expectedCount: 5, desiredHealthy: 2, unmanagedPods: [] });
});

test('ReplicationController and StatefulSet scales add up; desiredHealthy never below 0', async () => {
  const pods = [
    pod('a', { owner: ref('ReplicationController', 'rc', 'v1') }),
    pod('b', { owner: ref('StatefulSet', 'ss') }),
  ];
  const objs = { rc: [workload('rc', 2)], ss: [workload('ss', 3)] };
  const r = await expectedPodCount(budget({ maxUnavailable: 9 }), pods, finders(objs));
  assert.deepEqual(r, { expectedCount: 5, desiredHealthy: 0, unmanagedPods: [] });
});

test('an unmanaged pod is reported, not counted; a controller recreated under the same name is not the pod’s', async () => {
  const naked = await expectedPodCount(budget({ minAvailable: '28%' }), [pod('a')], finders({}));
  assert.deepEqual(naked, { expectedCount: 0, desiredHealthy: 0, unmanagedPods: ['a'] });
  const other = { ...workload('rs', 4), metadata: { name: 'rs', namespace: 'ns', uid: 'new' } };
  await assert.rejects(
    expectedPodCount(
      budget({ maxUnavailable: 1 }),
      [pod('a', { owner: ref('ReplicaSet', 'rs') })],
      finders({ rs: [other] }).slice(0, 4)
    ),
    { message: 'found no controllers for pod "a"' }
  );
});

test('currentHealthy: ready pods, neither being deleted nor evicted within DeletionTimeout', () => {
  const now = Date.parse('2026-01-01T00:10:00Z');
  const pods = [pod('a'), pod('b', { ready: false }), pod('c', { deleting: true }), pod('d')];
  assert.equal(countHealthyPods(pods, {}, now), 2);
  assert.equal(countHealthyPods(pods, { d: '2026-01-01T00:09:30Z' }, now), 1);
  assert.equal(countHealthyPods(pods, { d: '2026-01-01T00:07:00Z' }, now), 2, 'expired entry');
});

test('disruptedPods: entries of deleted, gone and expired pods leave; the recheck is when the oldest left expires', () => {
  const now = Date.parse('2026-01-01T00:10:00Z');
  const pdb = budget(
    { minAvailable: 1 },
    {
      disruptedPods: {
        waiting: '2026-01-01T00:09:00Z',
        newer: '2026-01-01T00:09:30Z',
        expired: '2026-01-01T00:05:00Z',
        deleting: '2026-01-01T00:09:00Z',
        gone: '2026-01-01T00:09:00Z',
      },
    }
  );
  const pods = [pod('waiting'), pod('newer'), pod('expired'), pod('deleting', { deleting: true })];
  const r = buildDisruptedPodMap(pods, pdb, now);
  assert.deepEqual(r.disruptedPods, {
    waiting: '2026-01-01T00:09:00Z',
    newer: '2026-01-01T00:09:30Z',
  });
  assert.equal(r.recheckAtMs, Date.parse('2026-01-01T00:09:00Z') + deletionTimeoutMs);
  assert.deepEqual(buildDisruptedPodMap(pods, budget({}), now), { disruptedPods: {} });
});

test('status: disruptionsAllowed = currentHealthy - desiredHealthy, SufficientPods; no write when up to date', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const counts = { currentHealthy: 3, desiredHealthy: 2, expectedCount: 3 };
  const next = nextBudgetStatus(budget({ minAvailable: 2 }, {}, 4), counts, {}, now);
  assert.deepEqual(next, {
    currentHealthy: 3,
    desiredHealthy: 2,
    expectedPods: 3,
    disruptionsAllowed: 1,
    disruptedPods: {},
    observedGeneration: 4,
    conditions: [
      {
        type: 'DisruptionAllowed',
        status: 'True',
        reason: 'SufficientPods',
        message: '',
        observedGeneration: 4,
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
    ],
  });
  const written = budget({ minAvailable: 2 }, next as Json, 4);
  assert.equal(conditionsAreUpToDate(written), true);
  assert.equal(nextBudgetStatus(written, counts, {}, new Date()), undefined);
});

test('status: too few healthy pods, or no pod expected, allow no disruption (InsufficientPods)', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const few = nextBudgetStatus(
    budget({ minAvailable: 2 }),
    { currentHealthy: 1, desiredHealthy: 2, expectedCount: 2 },
    {},
    now
  );
  assert.equal(few?.disruptionsAllowed, 0);
  assert.equal(few?.conditions?.[0]?.reason, 'InsufficientPods');
  assert.equal(few?.conditions?.[0]?.status, 'False');
  const none = nextBudgetStatus(
    budget({ maxUnavailable: 0 }),
    { currentHealthy: 2, desiredHealthy: 0, expectedCount: 0 },
    {},
    now
  );
  assert.equal(none?.disruptionsAllowed, 0);
});

test('status: a new generation is observed; lastTransitionTime moves only when the condition’s status changes', () => {
  const t0 = new Date('2026-01-01T00:00:00Z');
  const counts = { currentHealthy: 3, desiredHealthy: 2, expectedCount: 3 };
  const first = nextBudgetStatus(budget({ minAvailable: 2 }, {}, 1), counts, {}, t0) as Json;
  const t1 = new Date('2026-01-01T01:00:00Z');
  const regen = nextBudgetStatus(budget({ minAvailable: 2 }, first, 2), counts, {}, t1);
  assert.equal(regen?.observedGeneration, 2);
  assert.equal(regen?.conditions?.[0]?.lastTransitionTime, '2026-01-01T00:00:00Z');
  const flip = nextBudgetStatus(
    budget({ minAvailable: 3 }, first, 2),
    { ...counts, desiredHealthy: 3 },
    {},
    t1
  );
  assert.equal(flip?.conditions?.[0]?.lastTransitionTime, '2026-01-01T01:00:00Z');
});

test('fail safe: no disruption allowed, DisruptionAllowed False with reason SyncFailed and the error', () => {
  const pdb = budget({ minAvailable: '50%' }, { disruptionsAllowed: 2, observedGeneration: 1 });
  const s = failSafeStatus(pdb, new Error('found no controllers for pod "a"'), new Date(0));
  assert.equal(s.disruptionsAllowed, 0);
  assert.deepEqual(s.conditions?.[0], {
    type: 'DisruptionAllowed',
    status: 'False',
    reason: 'SyncFailed',
    message: 'found no controllers for pod "a"',
    observedGeneration: 1,
    lastTransitionTime: '1970-01-01T00:00:00Z',
  });
});
