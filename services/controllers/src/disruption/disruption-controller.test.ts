// The disruption controller on the shared suite with controllers: a PodDisruptionBudget gets its
// status from the pods its selector picks (no status written by the test), evictions through
// pods/eviction succeed while it allows a disruption and are 429 once it does not, the evicted
// pod's disruptedPods entry leaves once the pod is gone, and a new ready pod allows one again;
// maxUnavailable as a percent of a ReplicaSet's scale; a pod whose controller has no scale makes the
// sync fail safe (SyncFailed).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'disruption-ctl';
type Json = Record<string, unknown>;
interface BudgetStatus {
  observedGeneration?: number;
  expectedPods?: number;
  currentHealthy?: number;
  desiredHealthy?: number;
  disruptionsAllowed?: number;
  disruptedPods?: Record<string, string>;
  conditions?: { type: string; status: string; reason: string; message: string }[];
}
const pods = `/api/v1/namespaces/${ns}/pods`;
const budgets = `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`;

before(async () => {
  suite = await sharedSuite({ controllers: true });
  const r = await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  assert.equal(r.status, 201, r.text);
});

after(async () => {
  await suite.request(0, 'DELETE', `/api/v1/namespaces/${ns}`);
  await suite.stop();
});

/** A pod as the kubelet would leave it: Running and Ready. */
async function readyPod(name: string, labels: Record<string, string>, owner?: Json) {
  const c = await suite.request(0, 'POST', pods, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels, ...(owner ? { ownerReferences: [owner] } : {}) },
    spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
  });
  assert.equal(c.status, 201, c.text);
  const current = c.body as Json;
  current['status'] = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
  const s = await suite.request(0, 'PUT', `${pods}/${name}/status`, current);
  assert.equal(s.status, 200, s.text);
}

async function createBudget(name: string, spec: Json): Promise<void> {
  const r = await suite.request(0, 'POST', budgets, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name },
    spec,
  });
  assert.equal(r.status, 201, r.text);
}

/** Waits until the budget's status has every field of `want` (conditions by type and reason). */
async function statusBecomes(
  name: string,
  want: Omit<BudgetStatus, 'conditions'> & { reason?: string }
): Promise<BudgetStatus> {
  let last: BudgetStatus = {};
  const { reason, ...fields } = want;
  try {
    await waitFor(
      `status of ${name}`,
      async () => {
        const r = await suite.request(0, 'GET', `${budgets}/${name}`);
        last = ((r.body as Json)['status'] ?? {}) as BudgetStatus;
        const cond = last.conditions?.find((c) => c.type === 'DisruptionAllowed');
        return (
          Object.entries(fields).every(
            ([k, v]) => JSON.stringify(last[k as keyof BudgetStatus] ?? {}) === JSON.stringify(v)
          ) &&
          (reason === undefined || cond?.reason === reason)
        );
      },
      { timeoutMs: 30_000, intervalMs: 100 }
    );
  } catch (err) {
    throw new Error(
      `${String(err)}; last ${JSON.stringify(last)}\n${suite.logTail('controllers', 30)}`
    );
  }
  return last;
}

const evict = (name: string) =>
  suite.request(0, 'POST', `${pods}/${name}/eviction`, {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name, namespace: ns },
  });

test('disruption controller: a budget’s status from its pods; eviction allowed once, then 429, until a new pod is ready', async () => {
  for (const n of ['web-a', 'web-b', 'web-c']) await readyPod(n, { app: 'web' });
  await readyPod('other', { app: 'other' });
  await createBudget('web', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } });
  const st = await statusBecomes('web', {
    observedGeneration: 1,
    expectedPods: 3,
    currentHealthy: 3,
    desiredHealthy: 2,
    disruptionsAllowed: 1,
    reason: 'SufficientPods',
  });
  assert.equal(st.conditions?.[0]?.status, 'True');

  const first = await evict('web-a');
  assert.equal(first.status, 201, first.text);
  const refused = await evict('web-b');
  assert.equal(refused.status, 429, refused.text);
  assert.equal((await suite.request(0, 'GET', `${pods}/web-b`)).status, 200);

  // The evicted pod is gone: its disruptedPods entry leaves, the counts follow.
  await statusBecomes('web', {
    expectedPods: 2,
    currentHealthy: 2,
    desiredHealthy: 2,
    disruptionsAllowed: 0,
    disruptedPods: {},
    reason: 'InsufficientPods',
  });

  await readyPod('web-d', { app: 'web' });
  await statusBecomes('web', { expectedPods: 3, currentHealthy: 3, disruptionsAllowed: 1 });
  const again = await evict('web-b');
  assert.equal(again.status, 201, again.text);
});

test('disruption controller: maxUnavailable as a percent of the ReplicaSet’s scale; a pod controlled by a kind without scale fails safe', async () => {
  const rs = await suite.request(0, 'POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'api' },
    spec: {
      replicas: 4,
      selector: { matchLabels: { app: 'api' } },
      template: {
        metadata: { labels: { app: 'api' } },
        spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
      },
    },
  });
  assert.equal(rs.status, 201, rs.text);
  const uid = ((rs.body as Json)['metadata'] as { uid: string }).uid;
  const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'api', uid, controller: true };
  for (const n of ['api-1', 'api-2', 'api-3']) await readyPod(n, { app: 'api' }, owner);
  await createBudget('api', { maxUnavailable: '50%', selector: { matchLabels: { app: 'api' } } });
  await statusBecomes('api', {
    expectedPods: 4,
    desiredHealthy: 2,
    currentHealthy: 3,
    disruptionsAllowed: 1,
    reason: 'SufficientPods',
  });

  // A pod controlled by a kind without a scale subresource: the expected count cannot be known.
  // (A ConfigMap that exists, so that the garbage collector leaves the pod alone.)
  const cm = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'not-a-workload' },
  });
  assert.equal(cm.status, 201, cm.text);
  const cmUid = ((cm.body as Json)['metadata'] as { uid: string }).uid;
  await readyPod(
    'api-odd',
    { app: 'api' },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'not-a-workload',
      uid: cmUid,
      controller: true,
    }
  );
  const failed = await statusBecomes('api', { disruptionsAllowed: 0, reason: 'SyncFailed' });
  const cond = failed.conditions?.find((c) => c.type === 'DisruptionAllowed');
  assert.equal(cond?.status, 'False');
  assert.equal(cond?.message, 'configmaps does not implement the scale subresource');
  const r = await evict('api-1');
  assert.equal(r.status, 429, r.text);
});
