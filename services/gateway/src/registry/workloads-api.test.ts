// The workload and autoscaling kinds through a real suite (etcd, NATS, storage, authorizer,
// admission, gateway): each kind created, read and listed as a Table; the main resource
// ignoring status and /status ignoring spec; immutable selectors; the scale subresource; one
// HorizontalPodAutoscaler collection served in autoscaling/v1 and v2; pods/eviction against
// PodDisruptionBudgets.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { realisticObjects } from '@orch/apimachinery/testdata';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

type Json = Record<string, any>;
let suite: Suite;
const ns = 'workloads';

const req = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  suite.request(0, method, path, body, headers);
const pathOf = (apiVersion: string, resource: string, name = '') => {
  const base = apiVersion === 'v1' ? '/api/v1' : `/apis/${apiVersion}`;
  return `${base}/namespaces/${ns}/${resource}${name ? `/${name}` : ''}`;
};
/** A realistic object as a client creates it: no status, no system fields, in this namespace. */
const fresh = (key: string, change: (o: Json) => void = () => {}): Json => {
  const o: Json = structuredClone(realisticObjects[key]!);
  delete o['status'];
  o['metadata'] = { name: o['metadata'].name, labels: o['metadata'].labels, namespace: ns };
  if (!o['metadata'].labels) delete o['metadata'].labels;
  change(o);
  return o;
};
const causes = (body: any): string[] =>
  (body?.details?.causes ?? []).map((c: Json) => `${c.field}: ${c.message}`);

const kinds: [key: string, resource: string][] = [
  ['v1/PodTemplate', 'podtemplates'],
  ['v1/ReplicationController', 'replicationcontrollers'],
  ['v1/Endpoints', 'endpoints'],
  ['apps/v1/StatefulSet', 'statefulsets'],
  ['apps/v1/DaemonSet', 'daemonsets'],
  ['apps/v1/ControllerRevision', 'controllerrevisions'],
  ['batch/v1/Job', 'jobs'],
  ['batch/v1/CronJob', 'cronjobs'],
  ['autoscaling/v2/HorizontalPodAutoscaler', 'horizontalpodautoscalers'],
  ['policy/v1/PodDisruptionBudget', 'poddisruptionbudgets'],
];

before(async () => {
  suite = await sharedSuite();
  const r = await req('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  assert.equal(r.status, 201, r.text);
});

after(async () => {
  await suite.stop();
});

for (const [key, resource] of kinds) {
  test(`${key}: created, read back, listed as a Table with upstream's columns`, async () => {
    const apiVersion = key.slice(0, key.lastIndexOf('/'));
    const o = fresh(key, (x) => {
      // Jobs get their selector from the strategy.
      if (resource === 'jobs') {
        delete x['spec'].selector;
        delete x['spec'].manualSelector;
        x['spec'].template.metadata.labels = { app: 'report' };
      }
    });
    const created = await req('POST', pathOf(apiVersion, resource), o);
    assert.equal(created.status, 201, created.text);
    const got = await req('GET', pathOf(apiVersion, resource, o['metadata'].name));
    assert.equal(got.status, 200);
    assert.equal((got.body as Json)['kind'], o['kind']);
    if (resource !== 'jobs' && o['spec'] !== undefined) {
      // Templates gain the pod defaults; every other field comes back as written.
      for (const [k, v] of Object.entries(o['spec']))
        if (!/emplate/.test(k))
          assert.deepEqual((got.body as Json)['spec'][k], v, `${key} spec.${k}`);
    }
    const table = await req('GET', pathOf(apiVersion, resource), undefined, {
      Accept: 'application/json;as=Table;v=v1;g=meta.orch.io',
    });
    assert.equal(table.status, 200, table.text);
    const t = table.body as Json;
    assert.equal(t['rows'].length, 1);
    assert.equal(t['rows'][0].cells[0], o['metadata'].name);
    assert.ok(t['columnDefinitions'].length > 2, `${key} has its own columns`);
  });
}

test('defaults as upstream: a Job gets its selector, completions, parallelism, backoffLimit; a StatefulSet its policies', async () => {
  const job = (await req('GET', pathOf('batch/v1', 'jobs', 'report-28571234'))).body as Json;
  const uid = job['metadata'].uid;
  assert.deepEqual(job['spec'].selector, {
    matchLabels: { 'batch.kubernetes.io/controller-uid': uid },
  });
  assert.equal(
    job['spec'].template.metadata.labels['batch.kubernetes.io/job-name'],
    'report-28571234'
  );
  assert.equal(job['spec'].backoffLimit, 6);
  assert.equal(job['spec'].completionMode, 'NonIndexed');
  assert.equal(job['spec'].suspend, false);
  const sts = fresh('apps/v1/StatefulSet', (o) => {
    o['metadata'].name = 'defaults';
    o['spec'] = { selector: o['spec'].selector, template: o['spec'].template, serviceName: 'db' };
  });
  const r = await req('POST', pathOf('apps/v1', 'statefulsets'), sts);
  assert.equal(r.status, 201, r.text);
  const s = (r.body as Json)['spec'];
  assert.equal(s.replicas, 1);
  assert.equal(s.podManagementPolicy, 'OrderedReady');
  assert.deepEqual(s.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
  assert.deepEqual(s.persistentVolumeClaimRetentionPolicy, {
    whenDeleted: 'Retain',
    whenScaled: 'Retain',
  });
  assert.equal(s.revisionHistoryLimit, 10);
});

test('a bad object is refused with upstream field paths and stores nothing', async () => {
  const bad = fresh('apps/v1/DaemonSet', (o) => {
    o['metadata'].name = 'bad';
    o['spec'].template.metadata.labels = { app: 'other' };
  });
  const r = await req('POST', pathOf('apps/v1', 'daemonsets'), bad);
  assert.equal(r.status, 422, r.text);
  assert.deepEqual(causes(r.body), [
    'spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`',
  ]);
  assert.match((r.body as Json)['message'], /DaemonSet.apps "bad" is invalid/);
  assert.equal((await req('GET', pathOf('apps/v1', 'daemonsets', 'bad'))).status, 404);
});

test('status subresource: the main resource keeps status, /status keeps spec (Job)', async () => {
  const path = pathOf('batch/v1', 'jobs', 'report-28571234');
  const job = (await req('GET', path)).body as Json;
  const withStatus = { ...job, status: { active: 2 } };
  const main = await req('PUT', path, withStatus);
  assert.equal(main.status, 200, main.text);
  assert.equal((main.body as Json)['status']?.active, undefined);
  const viaStatus = structuredClone(main.body as Json);
  viaStatus['status'] = { active: 1 };
  viaStatus['spec'].parallelism = 7;
  const st = await req('PUT', `${path}/status`, viaStatus);
  assert.equal(st.status, 200, st.text);
  assert.equal((st.body as Json)['status'].active, 1);
  assert.equal((st.body as Json)['spec'].parallelism, 2);
  // A kind without a status subresource answers 404 for it.
  assert.equal((await req('GET', `${pathOf('batch/v1', 'cronjobs', 'report')}/scale`)).status, 404);
});

test('immutable selectors: spec.selector: Invalid value: ...: field is immutable', async () => {
  const path = pathOf('apps/v1', 'statefulsets', 'db');
  const sts = (await req('GET', path)).body as Json;
  sts['spec'].selector = { matchLabels: { app: 'db', tier: 'x' } };
  sts['spec'].template.metadata.labels.tier = 'x';
  const r = await req('PUT', path, sts);
  assert.equal(r.status, 422, r.text);
  assert.deepEqual(causes(r.body), [
    'spec.selector: Invalid value: {"matchLabels":{"app":"db","tier":"x"}}: field is immutable',
  ]);
});

test('scale: a Scale of the parent, spec.replicas written back with the Scale resourceVersion as precondition', async () => {
  for (const [apiVersion, resource, name, selector] of [
    ['apps/v1', 'statefulsets', 'db', 'app=db'],
    ['v1', 'replicationcontrollers', 'legacy-web', 'app=legacy-web'],
  ] as const) {
    const path = `${pathOf(apiVersion, resource, name)}/scale`;
    const got = await req('GET', path);
    assert.equal(got.status, 200, got.text);
    const scale = got.body as Json;
    assert.equal(scale['apiVersion'], 'autoscaling/v1');
    assert.equal(scale['kind'], 'Scale');
    assert.equal(scale['spec'].replicas, 3);
    assert.equal(scale['status'].selector, selector);
    const parent = (await req('GET', pathOf(apiVersion, resource, name))).body as Json;
    assert.equal(scale['metadata'].resourceVersion, parent['metadata'].resourceVersion);
    scale['spec'].replicas = 5;
    const put = await req('PUT', path, scale);
    assert.equal(put.status, 200, put.text);
    assert.equal((put.body as Json)['spec'].replicas, 5);
    const after = (await req('GET', pathOf(apiVersion, resource, name))).body as Json;
    assert.equal(after['spec'].replicas, 5);
    assert.equal(after['metadata'].generation, (parent['metadata'].generation ?? 1) + 1);
    // The old resourceVersion no longer matches: 409, nothing written.
    scale['spec'].replicas = 9;
    const stale = await req('PUT', path, scale);
    assert.equal(stale.status, 409, stale.text);
    const patch = await req(
      'PATCH',
      path,
      { spec: { replicas: 2 } },
      {
        'Content-Type': 'application/merge-patch+json',
      }
    );
    assert.equal(patch.status, 200, patch.text);
    assert.equal(
      ((await req('GET', pathOf(apiVersion, resource, name))).body as Json)['spec'].replicas,
      2
    );
    const negative = await req(
      'PATCH',
      path,
      { spec: { replicas: -1 } },
      {
        'Content-Type': 'application/merge-patch+json',
      }
    );
    assert.equal(negative.status, 422, negative.text);
    assert.deepEqual(causes(negative.body), [
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    ]);
  }
  // DaemonSets have no scale subresource.
  assert.equal(
    (await req('GET', `${pathOf('apps/v1', 'daemonsets', 'node-exporter')}/scale`)).status,
    404
  );
});

test('HorizontalPodAutoscalers: one collection, v1 and v2 views of the same objects', async () => {
  const v1 = fresh(
    'autoscaling/v1/HorizontalPodAutoscaler',
    (o) => (o['metadata'].name = 'from-v1')
  );
  const c = await req('POST', pathOf('autoscaling/v1', 'horizontalpodautoscalers'), v1);
  assert.equal(c.status, 201, c.text);
  assert.equal((c.body as Json)['apiVersion'], 'autoscaling/v1');
  assert.equal((c.body as Json)['spec'].targetCPUUtilizationPercentage, 75);
  const asV2 = (await req('GET', pathOf('autoscaling/v2', 'horizontalpodautoscalers', 'from-v1')))
    .body as Json;
  assert.equal(asV2['apiVersion'], 'autoscaling/v2');
  assert.deepEqual(asV2['spec'].metrics, [
    {
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 75 } },
    },
  ]);
  // The v2 object with every metric kind and a behavior, read through v1 and written back.
  const asV1 = (await req('GET', pathOf('autoscaling/v1', 'horizontalpodautoscalers', 'web')))
    .body as Json;
  assert.equal(asV1['spec'].targetCPUUtilizationPercentage, 70);
  assert.ok(asV1['metadata'].annotations['autoscaling.alpha.kubernetes.io/metrics']);
  assert.ok(asV1['metadata'].annotations['autoscaling.alpha.kubernetes.io/behavior']);
  asV1['spec'].maxReplicas = 12;
  const put = await req('PUT', pathOf('autoscaling/v1', 'horizontalpodautoscalers', 'web'), asV1);
  assert.equal(put.status, 200, put.text);
  const back = (await req('GET', pathOf('autoscaling/v2', 'horizontalpodautoscalers', 'web')))
    .body as Json;
  const original = realisticObjects['autoscaling/v2/HorizontalPodAutoscaler'] as Json;
  assert.equal(back['spec'].maxReplicas, 12);
  assert.deepEqual(back['spec'].metrics, original['spec'].metrics);
  assert.deepEqual(back['spec'].behavior, original['spec'].behavior);
  assert.equal(back['metadata'].annotations, undefined, 'no round-trip annotation is stored');
  // Both versions list both objects.
  for (const v of ['autoscaling/v1', 'autoscaling/v2']) {
    const list = (await req('GET', pathOf(v, 'horizontalpodautoscalers'))).body as Json;
    assert.equal(list['kind'], 'HorizontalPodAutoscalerList');
    assert.deepEqual(list['items'].map((i: Json) => [i.apiVersion, i.metadata.name]).sort(), [
      [v, 'from-v1'],
      [v, 'web'],
    ]);
  }
  // Validation sees v2 whatever the request's version.
  const bad = fresh('autoscaling/v1/HorizontalPodAutoscaler', (o) => {
    o['metadata'].name = 'bad';
    o['spec'].maxReplicas = 0;
  });
  const r = await req('POST', pathOf('autoscaling/v1', 'horizontalpodautoscalers'), bad);
  assert.equal(r.status, 422, r.text);
  assert.deepEqual(causes(r.body), ['spec.maxReplicas: Invalid value: 0: must be greater than 0']);
});

/** A running, ready pod with labels, and a budget selecting it with the status a controller wrote. */
async function podAndBudget(name: string, disruptionsAllowed: number | undefined) {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: { app: name } },
    spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
  };
  assert.equal((await req('POST', pathOf('v1', 'pods'), pod)).status, 201);
  const current = (await req('GET', pathOf('v1', 'pods', name))).body as Json;
  current['status'] = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
  const st = await req('PUT', `${pathOf('v1', 'pods', name)}/status`, current);
  assert.equal(st.status, 200, st.text);
  if (disruptionsAllowed === undefined) return;
  const pdb = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: ns },
    spec: { minAvailable: 1, selector: { matchLabels: { app: name } } },
  };
  const c = await req('POST', pathOf('policy/v1', 'poddisruptionbudgets'), pdb);
  assert.equal(c.status, 201, c.text);
  const created = c.body as Json;
  created['status'] = {
    observedGeneration: created['metadata'].generation,
    disruptionsAllowed,
    currentHealthy: 1 + disruptionsAllowed,
    desiredHealthy: 1,
    expectedPods: 1 + disruptionsAllowed,
  };
  const s = await req(
    'PUT',
    `${pathOf('policy/v1', 'poddisruptionbudgets', name)}/status`,
    created
  );
  assert.equal(s.status, 200, s.text);
}
const evict = (name: string) =>
  req('POST', `${pathOf('v1', 'pods', name)}/eviction`, {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name, namespace: ns },
  });

test('eviction refused with 429 when the budget allows no disruption; the pod stays', async () => {
  await podAndBudget('guarded', 0);
  const r = await evict('guarded');
  assert.equal(r.status, 429, r.text);
  const body = r.body as Json;
  assert.equal(body['reason'], 'TooManyRequests');
  assert.equal(
    body['message'],
    "Cannot evict pod as it would violate the pod's disruption budget."
  );
  assert.deepEqual(body['details'].causes, [
    {
      reason: 'DisruptionBudget',
      message: 'The disruption budget guarded needs 1 healthy pods and has 1 currently',
    },
  ]);
  assert.equal((await req('GET', pathOf('v1', 'pods', 'guarded'))).status, 200);
});

test('eviction allowed by the budget: one disruption taken, the pod deleted', async () => {
  await podAndBudget('allowed', 1);
  const r = await evict('allowed');
  assert.equal(r.status, 201, r.text);
  assert.equal((r.body as Json)['status'], 'Success');
  assert.equal((await req('GET', pathOf('v1', 'pods', 'allowed'))).status, 404);
  const pdb = (await req('GET', pathOf('policy/v1', 'poddisruptionbudgets', 'allowed')))
    .body as Json;
  assert.equal(pdb['status'].disruptionsAllowed, 0);
  assert.ok(pdb['status'].disruptedPods['allowed']);
  assert.equal(pdb['status'].conditions[0].reason, 'InsufficientPods');
});

test('eviction without a budget deletes the pod; a budget not yet observed answers 429 "still being processed"', async () => {
  await podAndBudget('free', undefined);
  assert.equal((await evict('free')).status, 201);
  assert.equal((await req('GET', pathOf('v1', 'pods', 'free'))).status, 404);
  await podAndBudget('pending-budget', 1);
  const pdbPath = pathOf('policy/v1', 'poddisruptionbudgets', 'pending-budget');
  const pdb = (await req('GET', pdbPath)).body as Json;
  pdb['spec'].minAvailable = 2; // a new generation the controller has not observed
  assert.equal((await req('PUT', pdbPath, pdb)).status, 200);
  const r = await evict('pending-budget');
  assert.equal(r.status, 429, r.text);
  assert.deepEqual((r.body as Json)['details'].causes, [
    {
      reason: 'DisruptionBudget',
      message: 'The disruption budget pending-budget is still being processed by the server.',
    },
  ]);
  assert.equal((await evict('missing')).status, 404);
});

test('HorizontalPodAutoscalers: a watch in v1 sees changes made through v2 as v1 objects', async () => {
  const list = (await req('GET', pathOf('autoscaling/v1', 'horizontalpodautoscalers')))
    .body as Json;
  const rv = list['metadata'].resourceVersion;
  const watching = req(
    'GET',
    `${pathOf('autoscaling/v1', 'horizontalpodautoscalers')}?watch=1&resourceVersion=${rv}&timeoutSeconds=3`
  );
  const v2 = fresh(
    'autoscaling/v2/HorizontalPodAutoscaler',
    (o) => (o['metadata'].name = 'watched')
  );
  assert.equal(
    (await req('POST', pathOf('autoscaling/v2', 'horizontalpodautoscalers'), v2)).status,
    201
  );
  const events = (await watching).text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Json);
  const added = events.find((e) => e['object'].metadata.name === 'watched');
  assert.ok(added, (await watching).text);
  assert.equal(added['type'], 'ADDED');
  assert.equal(added['object'].apiVersion, 'autoscaling/v1');
  assert.equal(added['object'].spec.targetCPUUtilizationPercentage, 70);
  assert.ok(added['object'].metadata.annotations['autoscaling.alpha.kubernetes.io/metrics']);
});

// ---- The spec's "Removed API versions by release" rows of these kinds ----

const group = async (name: string) =>
  ((await req('GET', `/apis/${name}`)).body as Json)['versions'];

test('Removed API versions by release, rows 1.26 (HorizontalPodAutoscaler autoscaling/v2beta2) and 1.25 (autoscaling/v2beta1): both 404, v2 preferred beside v1', async () => {
  for (const v of ['v2beta2', 'v2beta1']) {
    assert.equal(
      (await req('GET', `/apis/autoscaling/${v}/horizontalpodautoscalers`)).status,
      404,
      v
    );
  }
  assert.deepEqual(await group('autoscaling'), [
    { groupVersion: 'autoscaling/v2', version: 'v2' },
    { groupVersion: 'autoscaling/v1', version: 'v1' },
  ]);
});

test('Removed API versions by release, row 1.25 (CronJob batch/v1beta1): 404, batch/v1 served', async () => {
  assert.equal((await req('GET', `/apis/batch/v1beta1/namespaces/${ns}/cronjobs`)).status, 404);
  assert.deepEqual(await group('batch'), [{ groupVersion: 'batch/v1', version: 'v1' }]);
});

test('Removed API versions by release, row 1.25 (PodDisruptionBudget policy/v1beta1): 404; in v1 an empty selector selects every pod of the namespace, an unset one none', async () => {
  assert.equal(
    (await req('GET', `/apis/policy/v1beta1/namespaces/${ns}/poddisruptionbudgets`)).status,
    404
  );
  const other = 'pdb-selectors';
  assert.equal(
    (await req('POST', '/api/v1/namespaces', { metadata: { name: other } })).status,
    201
  );
  const base = (p: string) => p.replace(`/namespaces/${ns}/`, `/namespaces/${other}/`);
  const budget = async (name: string, selector: Json | undefined) => {
    const c = await req('POST', base(pathOf('policy/v1', 'poddisruptionbudgets')), {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name },
      spec: { maxUnavailable: 0, ...(selector ? { selector } : {}) },
    });
    assert.equal(c.status, 201, c.text);
    const o = c.body as Json;
    o['status'] = {
      observedGeneration: o['metadata'].generation,
      disruptionsAllowed: 0,
      desiredHealthy: 1,
      currentHealthy: 1,
    };
    assert.equal(
      (await req('PUT', `${base(pathOf('policy/v1', 'poddisruptionbudgets', name))}/status`, o))
        .status,
      200
    );
  };
  const runningPod = async (name: string) => {
    assert.equal(
      (
        await req('POST', base(pathOf('v1', 'pods')), {
          metadata: { name, labels: { any: 'thing' } },
          spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
        })
      ).status,
      201
    );
    const p = (await req('GET', base(pathOf('v1', 'pods', name)))).body as Json;
    p['status'] = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
    assert.equal((await req('PUT', `${base(pathOf('v1', 'pods', name))}/status`, p)).status, 200);
  };
  const evictIn = (name: string) =>
    req('POST', `${base(pathOf('v1', 'pods', name))}/eviction`, {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name },
    });
  await budget('unset', undefined);
  await runningPod('a');
  assert.equal((await evictIn('a')).status, 201, 'an unset selector selects none');
  await budget('empty', {});
  await runningPod('b');
  const r = await evictIn('b');
  assert.equal(r.status, 429, 'an empty selector selects every pod');
  assert.match((r.body as Json)['details'].causes[0].message, /The disruption budget empty needs/);
});

for (const [row, apiVersion, resource, key] of [
  [
    '1.16 (DaemonSet extensions/v1beta1, apps/v1beta2)',
    'apps/v1',
    'daemonsets',
    'apps/v1/DaemonSet',
  ],
  [
    '1.16 (Deployment extensions/v1beta1, apps/v1beta1, apps/v1beta2)',
    'apps/v1',
    'deployments',
    'apps/v1/Deployment',
  ],
  [
    '1.16 (StatefulSet apps/v1beta1, apps/v1beta2)',
    'apps/v1',
    'statefulsets',
    'apps/v1/StatefulSet',
  ],
  [
    '1.16 (ReplicaSet extensions/v1beta1, apps/v1beta1, apps/v1beta2)',
    'apps/v1',
    'replicasets',
    'apps/v1/ReplicaSet',
  ],
] as const) {
  test(`Removed API versions by release, row ${row}: the old versions 404; in apps/v1 spec.selector is required and immutable`, async () => {
    for (const old of ['apps/v1beta1', 'apps/v1beta2', 'extensions/v1beta1'])
      assert.equal(
        (await req('GET', `/apis/${old}/namespaces/${ns}/${resource}`)).status,
        404,
        old
      );
    const name = `row-${resource}`;
    const noSelector = fresh(key, (o) => {
      o['metadata'].name = name;
      delete o['spec'].selector;
    });
    const refused = await req('POST', pathOf(apiVersion, resource), noSelector);
    // The schema's required option refuses it while decoding (400), naming the field.
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.text, /spec\.selector: Required value/);
    const created = await req(
      'POST',
      pathOf(apiVersion, resource),
      fresh(key, (o) => (o['metadata'].name = name))
    );
    assert.equal(created.status, 201, created.text);
    const o = created.body as Json;
    o['spec'].selector = { matchLabels: { ...o['spec'].selector.matchLabels, moved: 'yes' } };
    o['spec'].template.metadata.labels.moved = 'yes';
    const changed = await req('PUT', pathOf(apiVersion, resource, name), o);
    assert.equal(changed.status, 422, changed.text);
    assert.match(
      (changed.body as Json)['message'],
      /spec\.selector: Invalid value: .*: field is immutable/
    );
  });
}

test('Removed API versions by release, rows 1.16: the apps/v1 defaults (RollingUpdate strategies, Deployment 600 s, 10 revisions, 25%); DaemonSet spec.templateGeneration is gone', async () => {
  const dep = fresh('apps/v1/Deployment', (o) => {
    o['metadata'].name = 'defaults';
    o['spec'] = { selector: o['spec'].selector, template: o['spec'].template };
  });
  const d = ((await req('POST', pathOf('apps/v1', 'deployments'), dep)).body as Json)['spec'];
  assert.equal(d.progressDeadlineSeconds, 600);
  assert.equal(d.revisionHistoryLimit, 10);
  assert.deepEqual(d.strategy, {
    type: 'RollingUpdate',
    rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
  });
  const ds = fresh('apps/v1/DaemonSet', (o) => {
    o['metadata'].name = 'defaults';
    o['spec'] = {
      selector: o['spec'].selector,
      template: o['spec'].template,
      templateGeneration: 2,
    };
  });
  const strict = await req('POST', `${pathOf('apps/v1', 'daemonsets')}?fieldValidation=Strict`, ds);
  assert.equal(strict.status, 400, strict.text);
  assert.match(strict.text, /unknown field \\"spec.templateGeneration\\"/);
  delete ds['spec'].templateGeneration;
  const created = await req('POST', pathOf('apps/v1', 'daemonsets'), ds);
  assert.equal(created.status, 201, created.text);
  assert.deepEqual((created.body as Json)['spec'].updateStrategy, {
    type: 'RollingUpdate',
    rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
  });
});
