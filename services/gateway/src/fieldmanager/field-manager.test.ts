// Server-side apply and managedFields against a real suite (etcd, NATS, storage, authorizer,
// admission, gateway): each test names the spec's field ownership rule (or the issue's
// requirement) it checks.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { grantClusterRole, sharedSuite } from '@orch/testing';
import type { Suite, SuiteResponse } from '@orch/testing';

let suite: Suite;
const ns = 'ssa';
const cms = `/api/v1/namespaces/${ns}/configmaps`;
const deps = `/apis/apps/v1/namespaces/${ns}/deployments`;
const applyType = { 'Content-Type': 'application/apply-patch+yaml' };

const apply = (path: string, body: unknown, query: string, headers: Record<string, string> = {}) =>
  suite.request(
    0,
    'PATCH',
    `${path}?${query}`,
    typeof body === 'string' ? body : JSON.stringify(body),
    { ...applyType, ...headers }
  );
const get = async (path: string): Promise<any> => (await suite.request(0, 'GET', path)).body;
const entries = (obj: any): any[] => obj?.metadata?.managedFields ?? [];
const entryOf = (obj: any, manager: string, operation?: string): any =>
  entries(obj).find(
    (e) => e.manager === manager && (operation === undefined || e.operation === operation)
  );
const causes = (r: SuiteResponse): any[] => (r.body as any).details?.causes ?? [];

const cm = (name: string, data: Record<string, string>, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(labels ? { labels } : {}) },
  data,
});

const deployment = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'web', image: 'nginx' }] },
    },
    ...spec,
  },
});

before(async () => {
  suite = await sharedSuite();
  const r = await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  assert.equal(r.status, 201, r.text);
});

after(async () => {
  await suite.stop();
});

test('patch content types: apply-patch+yaml is served; YAML and JSON bodies; apply creates when absent with an Apply entry in fieldsV1', async () => {
  const yaml = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y1\n  labels:\n    app: a\ndata:\n  k: v\n`;
  const created = await apply(`${cms}/y1`, yaml, 'fieldManager=alice');
  assert.equal(created.status, 201, created.text);
  const e = entryOf(created.body, 'alice', 'Apply');
  assert.ok(e, JSON.stringify(entries(created.body)));
  assert.equal(e.apiVersion, 'v1');
  assert.equal(e.fieldsType, 'FieldsV1');
  assert.match(e.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.deepEqual(e.fieldsV1, {
    'f:data': { 'f:k': {} },
    'f:metadata': { 'f:labels': { 'f:app': {} } },
  });
  const json = await apply(
    `${cms}/y1`,
    cm('y1', { k: 'v', k2: 'w' }, { app: 'a' }),
    'fieldManager=alice'
  );
  assert.equal(json.status, 200, json.text);
  assert.deepEqual((json.body as any).data, { k: 'v', k2: 'w' });
  assert.equal(entries(json.body).length, 1);
});

test('rule 2: apply must name itself with fieldManager, and the applied object must not contain managedFields; both store nothing', async () => {
  const noManager = await apply(`${cms}/r2`, cm('r2', { a: '1' }), '');
  assert.equal(noManager.status, 422, noManager.text);
  assert.equal((noManager.body as any).reason, 'Invalid');
  assert.match(
    (noManager.body as any).message,
    /fieldManager: Required value: is required for apply patch/
  );
  assert.deepEqual(
    causes(noManager).map((c) => c.field),
    ['fieldManager']
  );
  const withManaged = {
    ...cm('r2', { a: '1' }),
    metadata: {
      name: 'r2',
      managedFields: [
        {
          manager: 'x',
          operation: 'Apply',
          apiVersion: 'v1',
          fieldsType: 'FieldsV1',
          fieldsV1: {},
        },
      ],
    },
  };
  const bad = await apply(`${cms}/r2`, withManaged, 'fieldManager=alice');
  assert.equal(bad.status, 400, bad.text);
  assert.match((bad.body as any).message, /managedFields must be nil/);
  assert.equal((await suite.request(0, 'GET', `${cms}/r2`)).status, 404);
});

test("bad input stores nothing: malformed YAML, apiVersion or kind not the path's, a field set that does not fit the schema, force on a non-apply patch", async () => {
  const malformed = await apply(
    `${cms}/bad`,
    'apiVersion: v1\nkind: [ConfigMap\n',
    'fieldManager=m'
  );
  assert.equal(malformed.status, 400, malformed.text);
  const wrongKind = await apply(
    `${cms}/bad`,
    { ...cm('bad', {}), kind: 'Secret' },
    'fieldManager=m'
  );
  assert.equal(wrongKind.status, 400, wrongKind.text);
  assert.match((wrongKind.body as any).message, /Kind=Secret.*kind ConfigMap/);
  const wrongVersion = await apply(
    `${cms}/bad`,
    { ...cm('bad', {}), apiVersion: 'v2' },
    'fieldManager=m'
  );
  assert.equal(wrongVersion.status, 400, wrongVersion.text);
  assert.match((wrongVersion.body as any).message, /v2/);
  const notSchema = await apply(
    `${cms}/bad`,
    { ...cm('bad', {}), data: { k: 5 } },
    'fieldManager=m'
  );
  assert.equal(notSchema.status, 400, notSchema.text);
  assert.match((notSchema.body as any).message, /\.data\.k/);
  const unknown = await apply(`${cms}/bad`, { ...cm('bad', {}), nope: 1 }, 'fieldManager=m');
  assert.equal(unknown.status, 400, unknown.text);
  assert.equal((await suite.request(0, 'GET', `${cms}/bad`)).status, 404);
  await suite.request(0, 'POST', cms, cm('bad2', { a: '1' }));
  const force = await suite.request(
    0,
    'PATCH',
    `${cms}/bad2?force=true`,
    { data: { a: '2' } },
    {
      'Content-Type': 'application/merge-patch+json',
    }
  );
  assert.equal(force.status, 422, force.text);
  assert.equal((await get(`${cms}/bad2`)).data.a, '1');
});

test('rule 3: an applied field that differs from a value another manager owns is a 409 conflict with one FieldManagerConflict cause per field naming the manager; nothing is stored', async () => {
  await apply(
    deps + '/r3',
    deployment('r3', { replicas: 1, minReadySeconds: 5 }),
    'fieldManager=alice'
  );
  const r = await apply(
    deps + '/r3',
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'r3' },
      spec: { replicas: 3, minReadySeconds: 7 },
    },
    'fieldManager=bob'
  );
  assert.equal(r.status, 409, r.text);
  assert.equal((r.body as any).reason, 'Conflict');
  assert.equal(
    (r.body as any).message,
    'Apply failed with 2 conflicts: conflicts with "alice":\n- .spec.minReadySeconds\n- .spec.replicas'
  );
  assert.deepEqual(
    causes(r)
      .map((c) => [c.reason, c.message, c.field])
      .sort(),
    [
      ['FieldManagerConflict', 'conflict with "alice"', '.spec.minReadySeconds'],
      ['FieldManagerConflict', 'conflict with "alice"', '.spec.replicas'],
    ]
  );
  const live = await get(`${deps}/r3`);
  assert.equal(live.spec.replicas, 1);
  assert.equal(entryOf(live, 'bob'), undefined);
});

test('rule 3: update operations do not fail on conflict, they take ownership (an Update entry naming the manager, its API version and time)', async () => {
  await apply(deps + '/r3u', deployment('r3u', { replicas: 1 }), 'fieldManager=alice');
  const r = await suite.request(
    0,
    'PATCH',
    `${deps}/r3u?fieldManager=scaler`,
    { spec: { replicas: 4 } },
    {
      'Content-Type': 'application/merge-patch+json',
    }
  );
  assert.equal(r.status, 200, r.text);
  const e = entryOf(r.body, 'scaler', 'Update');
  assert.ok(e, JSON.stringify(entries(r.body)));
  assert.equal(e.apiVersion, 'apps/v1');
  assert.deepEqual(e.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
  const alice = entryOf(r.body, 'alice', 'Apply');
  assert.equal(alice.fieldsV1['f:spec']['f:replicas'], undefined, 'alice lost replicas');
  // The applier now conflicts with the updater, named with its version as upstream prints it.
  const again = await apply(
    deps + '/r3u',
    deployment('r3u', { replicas: 1 }),
    'fieldManager=alice'
  );
  assert.equal(again.status, 409, again.text);
  assert.match(
    (again.body as any).message,
    /^Apply failed with 1 conflict: conflict with "scaler" using apps\/v1: \.spec\.replicas$/
  );
});

test('rule 4: force=true moves ownership and overwrites; dropping the field gives it up and keeps the value; the same value shares ownership', async () => {
  await apply(deps + '/r4', deployment('r4', { replicas: 1 }), 'fieldManager=alice');
  const forced = await apply(
    deps + '/r4',
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'r4' }, spec: { replicas: 5 } },
    'fieldManager=bob&force=true'
  );
  assert.equal(forced.status, 200, forced.text);
  assert.equal((forced.body as any).spec.replicas, 5);
  assert.deepEqual(entryOf(forced.body, 'bob', 'Apply').fieldsV1, {
    'f:spec': { 'f:replicas': {} },
  });
  assert.equal(entryOf(forced.body, 'alice', 'Apply').fieldsV1['f:spec']['f:replicas'], undefined);
  // alice drops replicas from her intent: no conflict, the value stays (bob owns it).
  const { replicas: _, ...specNoReplicas } = deployment('r4', {}).spec as any;
  const dropped = await apply(
    deps + '/r4',
    { ...deployment('r4', {}), spec: specNoReplicas },
    'fieldManager=alice'
  );
  assert.equal(dropped.status, 200, dropped.text);
  assert.equal((dropped.body as any).spec.replicas, 5);
  // carol sets the same value: ownership is shared.
  const same = await apply(
    deps + '/r4',
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'r4' }, spec: { replicas: 5 } },
    'fieldManager=carol'
  );
  assert.equal(same.status, 200, same.text);
  assert.ok(entryOf(same.body, 'carol', 'Apply').fieldsV1['f:spec']['f:replicas']);
  assert.ok(entryOf(same.body, 'bob', 'Apply').fieldsV1['f:spec']['f:replicas']);
});

test('rule 5: two appliers that set the same value share ownership; a later change by either conflicts with the other', async () => {
  const body = (v: string) => cm('r5', { shared: v });
  assert.equal((await apply(`${cms}/r5`, body('1'), 'fieldManager=alice')).status, 201);
  assert.equal((await apply(`${cms}/r5`, body('1'), 'fieldManager=bob')).status, 200);
  const change = await apply(`${cms}/r5`, body('2'), 'fieldManager=alice');
  assert.equal(change.status, 409, change.text);
  assert.deepEqual(
    causes(change).map((c) => [c.message, c.field]),
    [['conflict with "bob"', '.data.shared']]
  );
});

test('rule 6: a field dropped from the intent is deleted unless another manager owns it; items the applier no longer lists are removed when no other applier owns them', async () => {
  const first = deployment('r6', {});
  (first.spec as any).template.spec.containers = [
    { name: 'web', image: 'nginx' },
    { name: 'side', image: 'busybox' },
  ];
  (first.metadata as any).labels = { a: '1', b: '2' };
  assert.equal((await apply(deps + '/r6', first, 'fieldManager=alice')).status, 201);
  // Another applier shares label b.
  const shareB = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'r6', labels: { b: '2' } },
  };
  assert.equal((await apply(deps + '/r6', shareB, 'fieldManager=bob')).status, 200);
  const second = deployment('r6', {});
  const r = await apply(deps + '/r6', second, 'fieldManager=alice');
  assert.equal(r.status, 200, r.text);
  const live = r.body as any;
  assert.deepEqual(live.metadata.labels, { b: '2' }, 'a removed, b kept for bob');
  assert.deepEqual(
    live.spec.template.spec.containers.map((c: any) => c.name),
    ['web']
  );
});

test("rule 6: two appliers each owning one container of a pod template keep each other's container", async () => {
  const mk = (containers: unknown[]) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'r6c' },
    spec: { template: { spec: { containers } } },
  });
  assert.equal(
    (await apply(deps + '/r6c', deployment('r6c', {}), 'fieldManager=alice')).status,
    201
  );
  const bob = await apply(
    deps + '/r6c',
    mk([{ name: 'sidecar', image: 'busybox' }]),
    'fieldManager=bob'
  );
  assert.equal(bob.status, 200, bob.text);
  assert.deepEqual(
    (bob.body as any).spec.template.spec.containers.map((c: any) => c.name),
    ['web', 'sidecar']
  );
  const aliceAgain = await apply(deps + '/r6c', deployment('r6c', {}), 'fieldManager=alice');
  assert.equal(aliceAgain.status, 200, aliceAgain.text);
  assert.deepEqual(
    (aliceAgain.body as any).spec.template.spec.containers.map((c: any) => c.name),
    ['web', 'sidecar']
  );
  const bobLeaves = await apply(deps + '/r6c', mk([]), 'fieldManager=bob');
  assert.equal(bobLeaves.status, 200, bobLeaves.text);
  assert.deepEqual(
    (bobLeaves.body as any).spec.template.spec.containers.map((c: any) => c.name),
    ['web']
  );
});

test('rule 7: patch permission edits, create permission is needed too when the apply creates', async () => {
  const role = {
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'ssa-patcher' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'patch'] }],
  };
  const r = await suite.request(
    0,
    'POST',
    '/apis/rbac.authorization.orch.io/v1/clusterroles',
    role
  );
  assert.equal(r.status, 201, r.text);
  await grantClusterRole(suite, 'ssa-patcher', 'ssa-patchers', {
    verb: 'patch',
    resource: 'configmaps',
  });
  const as = { 'Impersonate-User': 'pat', 'Impersonate-Group': 'ssa-patchers' };
  const create = await apply(`${cms}/r7`, cm('r7', { a: '1' }), 'fieldManager=pat', as);
  assert.equal(create.status, 403, create.text);
  // Upstream's words (withAuthorization): the resource and the authorizer's reason, RBAC's empty.
  assert.equal((create.body as any).message, 'configmaps "r7" is forbidden: ');
  assert.equal((create.body as any).reason, 'Forbidden');
  assert.equal((await suite.request(0, 'GET', `${cms}/r7`)).status, 404);
  assert.equal((await suite.request(0, 'POST', cms, cm('r7', { a: '1' }))).status, 201);
  const edit = await apply(`${cms}/r7`, cm('r7', { a: '2' }), 'fieldManager=pat&force=true', as);
  assert.equal(edit.status, 200, edit.text);
  assert.equal((edit.body as any).data.a, '2');
});

test('rule 9: ownership hand-over through a temporary manager, which disappears once it owns nothing', async () => {
  assert.equal((await apply(`${cms}/r9`, cm('r9', { x: '1' }), 'fieldManager=old')).status, 201);
  const tmp = await apply(`${cms}/r9`, cm('r9', { x: '1' }), 'fieldManager=handover');
  assert.ok(entryOf(tmp.body, 'handover'));
  // The new owner applies the field; the old one and the temporary one drop it.
  assert.equal((await apply(`${cms}/r9`, cm('r9', { x: '1' }), 'fieldManager=new')).status, 200);
  // An intent without data: the applier gives up everything under it.
  const bare = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'r9' } };
  assert.equal((await apply(`${cms}/r9`, bare, 'fieldManager=old')).status, 200);
  const done = await apply(`${cms}/r9`, bare, 'fieldManager=handover');
  assert.equal(done.status, 200, done.text);
  assert.equal((done.body as any).data.x, '1');
  assert.equal(entryOf(done.body, 'handover'), undefined);
  assert.equal(entryOf(done.body, 'old'), undefined);
  assert.ok(entryOf(done.body, 'new'));
});

test('rule 10: managedFields [{}] on a non-apply write resets them (the writer owns what else it changed); an empty list does not', async () => {
  assert.equal(
    (await apply(`${cms}/r10`, cm('r10', { a: '1' }), 'fieldManager=alice')).status,
    201
  );
  const empty = await suite.request(
    0,
    'PATCH',
    `${cms}/r10?fieldManager=m`,
    { metadata: { managedFields: [] } },
    {
      'Content-Type': 'application/merge-patch+json',
    }
  );
  assert.equal(empty.status, 200, empty.text);
  assert.ok(entryOf(empty.body, 'alice', 'Apply'), 'an empty list keeps them');
  const reset = await suite.request(
    0,
    'PATCH',
    `${cms}/r10?fieldManager=m`,
    { metadata: { managedFields: [{}] } },
    {
      'Content-Type': 'application/merge-patch+json',
    }
  );
  assert.equal(reset.status, 200, reset.text);
  assert.deepEqual(entries(reset.body), []);
  assert.equal((await get(`${cms}/r10`)).metadata.managedFields, undefined);
  assert.equal(
    (await apply(`${cms}/r10`, cm('r10', { a: '1' }), 'fieldManager=alice')).status,
    200
  );
  const resetAndChange = await suite.request(
    0,
    'PATCH',
    `${cms}/r10?fieldManager=m`,
    { metadata: { managedFields: [{}] }, data: { b: '2' } },
    { 'Content-Type': 'application/merge-patch+json' }
  );
  assert.equal(resetAndChange.status, 200, resetAndChange.text);
  assert.deepEqual(
    entries(resetAndChange.body).map((e) => [e.manager, e.operation, e.fieldsV1]),
    [['m', 'Update', { 'f:data': { 'f:b': {} } }]]
  );
});

test('rule 11: migration from client-side apply: kubectl server-side takes fields kubectl client-side set without conflicts, and keeps the last-applied annotation in step', async () => {
  const lastApplied = JSON.stringify(cm('r11', { a: '1', b: '2' }));
  const created = await suite.request(0, 'POST', `${cms}?fieldManager=kubectl-client-side-apply`, {
    ...cm('r11', { a: '1', b: '2' }),
    metadata: {
      name: 'r11',
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied },
    },
  });
  assert.equal(created.status, 201, created.text);
  assert.ok(entryOf(created.body, 'kubectl-client-side-apply', 'Update'));
  const ssa = await apply(`${cms}/r11`, cm('r11', { a: '10', b: '2' }), 'fieldManager=kubectl');
  assert.equal(ssa.status, 200, ssa.text);
  assert.equal((ssa.body as any).data.a, '10');
  const annotation = JSON.parse(
    (ssa.body as any).metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']
  );
  assert.deepEqual(annotation.data, { a: '10', b: '2' });
  // Another manager name opts out: the same change conflicts.
  const other = await apply(`${cms}/r11`, cm('r11', { a: '11', b: '2' }), 'fieldManager=tool');
  assert.equal(other.status, 409, other.text);
});

test("Update entries: manager from fieldManager or the user agent's program name; same manager, operation, version and subresource merge; the subresource is recorded", async () => {
  const created = await suite.request(0, 'POST', cms, cm('ua', { a: '1' }), {
    'User-Agent': 'mytool/1.2.3 (linux/amd64) orch/abc',
  });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(
    entries(created.body).map((e) => [e.manager, e.operation, e.apiVersion]),
    [['mytool', 'Update', 'v1']]
  );
  const put = { ...(created.body as any), data: { a: '1', b: '2' } };
  const updated = await suite.request(0, 'PUT', `${cms}/ua`, put, { 'User-Agent': 'mytool/9' });
  assert.equal(updated.status, 200, updated.text);
  assert.equal(entries(updated.body).length, 1, 'merged into one entry');
  assert.deepEqual(entryOf(updated.body, 'mytool').fieldsV1, {
    'f:data': { '.': {}, 'f:a': {}, 'f:b': {} },
  });
  const named = await suite.request(
    0,
    'PATCH',
    `${cms}/ua?fieldManager=other`,
    [{ op: 'add', path: '/data/c', value: '3' }],
    {
      'Content-Type': 'application/json-patch+json',
    }
  );
  assert.equal(named.status, 200, named.text);
  assert.deepEqual(entryOf(named.body, 'other').fieldsV1, { 'f:data': { 'f:c': {} } });
  // Strategic merge patch on a deployment's status subresource: an entry with subresource status.
  await apply(deps + '/sub', deployment('sub', { replicas: 1 }), 'fieldManager=alice');
  const status = await suite.request(
    0,
    'PATCH',
    `${deps}/sub/status?fieldManager=ctl`,
    { status: { observedGeneration: 1 } },
    {
      'Content-Type': 'application/strategic-merge-patch+json',
    }
  );
  assert.equal(status.status, 200, status.text);
  const e = entryOf(status.body, 'ctl');
  assert.equal(e.subresource, 'status');
  // No '.' under f:status: a Deployment is created with `status: {}` (Go writes the struct),
  // so the patch only adds a field to it, as kube-controller-manager's entries show upstream.
  assert.deepEqual(e.fieldsV1, { 'f:status': { 'f:observedGeneration': {} } });
});

test('apply on the main resource never owns status; /status applies own only status', async () => {
  const withStatus = { ...deployment('st', { replicas: 1 }), status: { observedGeneration: 9 } };
  const main = await apply(deps + '/st', withStatus, 'fieldManager=alice');
  assert.equal(main.status, 201, main.text);
  assert.equal((main.body as any).status?.observedGeneration, undefined);
  assert.equal(entryOf(main.body, 'alice').fieldsV1['f:status'], undefined);
  const st = await apply(
    deps + '/st/status',
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'st', labels: { x: 'y' } },
      spec: { replicas: 7 },
      status: { observedGeneration: 3 },
    },
    'fieldManager=ctl'
  );
  assert.equal(st.status, 200, st.text);
  assert.equal((st.body as any).status.observedGeneration, 3);
  assert.equal((st.body as any).spec.replicas, 1);
  const e = entryOf(st.body, 'ctl', 'Apply');
  assert.equal(e.subresource, 'status');
  assert.deepEqual(e.fieldsV1, { 'f:status': { 'f:observedGeneration': {} } });
  const missing = await apply(
    deps + '/nope/status',
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nope' } },
    'fieldManager=ctl'
  );
  assert.equal(missing.status, 404, missing.text);
});

test('dry run: apply, create, update and patch return the object with the managedFields they would store, and store nothing', async () => {
  const dry = await apply(`${cms}/dry`, cm('dry', { a: '1' }), 'fieldManager=alice&dryRun=All');
  assert.equal(dry.status, 201, dry.text);
  assert.ok(entryOf(dry.body, 'alice', 'Apply'));
  assert.equal((await suite.request(0, 'GET', `${cms}/dry`)).status, 404);
  const created = await suite.request(
    0,
    'POST',
    `${cms}?dryRun=All&fieldManager=c`,
    cm('dry', { a: '1' })
  );
  assert.equal(created.status, 201, created.text);
  assert.ok(entryOf(created.body, 'c', 'Update'));
  assert.equal(
    (await apply(`${cms}/dry`, cm('dry', { a: '1' }), 'fieldManager=alice')).status,
    201
  );
  const dryApply = await apply(
    `${cms}/dry`,
    cm('dry', { a: '2' }),
    'fieldManager=bob&force=true&dryRun=All'
  );
  assert.equal(dryApply.status, 200, dryApply.text);
  assert.ok(entryOf(dryApply.body, 'bob', 'Apply'));
  const dryPatch = await suite.request(
    0,
    'PATCH',
    `${cms}/dry?dryRun=All&fieldManager=p`,
    { data: { z: '1' } },
    {
      'Content-Type': 'application/merge-patch+json',
    }
  );
  assert.ok(entryOf(dryPatch.body, 'p', 'Update'));
  const live = await get(`${cms}/dry`);
  assert.deepEqual(live.data, { a: '1' });
  assert.deepEqual(
    entries(live).map((e) => e.manager),
    ['alice']
  );
});

test('managedFields are trimmed as upstream: at most 10 Update entries, the oldest merged into ancient-changes', async () => {
  assert.equal((await suite.request(0, 'POST', cms, cm('cap', { init: 'x' }))).status, 201);
  for (let i = 0; i < 12; i++) {
    const r = await suite.request(
      0,
      'PATCH',
      `${cms}/cap?fieldManager=u${i}`,
      { data: { [`k${i}`]: 'v' } },
      {
        'Content-Type': 'application/merge-patch+json',
      }
    );
    assert.equal(r.status, 200, r.text);
  }
  const live = await get(`${cms}/cap`);
  const updates = entries(live).filter((e) => e.operation === 'Update');
  assert.equal(updates.length, 10, JSON.stringify(updates.map((e) => e.manager)));
  assert.ok(updates.some((e) => e.manager === 'ancient-changes'));
  // Nothing is lost: every key is still owned by one of the entries.
  for (let i = 0; i < 12; i++)
    assert.ok(
      updates.some((e) => e.fieldsV1['f:data']?.[`f:k${i}`]),
      `k${i} owned`
    );
});

test('managed fields survive a change of API version: an entry keeps the version it was written in', async () => {
  assert.equal(
    (await apply(deps + '/ver', deployment('ver', { replicas: 1 }), 'fieldManager=alice')).status,
    201
  );
  const live = await get(`${deps}/ver`);
  live.metadata.managedFields.push({
    manager: 'legacy',
    operation: 'Update',
    apiVersion: 'apps/v1beta2',
    time: '2020-01-01T00:00:00Z',
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:spec': { 'f:paused': {} } },
  });
  // The PUT changes nothing but managedFields: the legacy entry is taken as sent.
  const put = await suite.request(0, 'PUT', `${deps}/ver?fieldManager=editor`, live);
  assert.equal(put.status, 200, put.text);
  const later = await suite.request(
    0,
    'PATCH',
    `${deps}/ver?fieldManager=scaler`,
    { spec: { minReadySeconds: 2 } },
    {
      'Content-Type': 'application/merge-patch+json',
    }
  );
  assert.equal(later.status, 200, later.text);
  const legacy = entryOf(later.body, 'legacy');
  assert.equal(legacy?.apiVersion, 'apps/v1beta2');
  assert.deepEqual(legacy.fieldsV1, { 'f:spec': { 'f:paused': {} } });
});

test('every write records managedFields on every stored kind: a cluster-scoped kind, a kind written through the admin, a no-op update changes nothing', async () => {
  const role = await suite.request(
    0,
    'POST',
    '/apis/rbac.authorization.orch.io/v1/clusterroles?fieldManager=rbac-tool',
    {
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'ssa-any' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
    }
  );
  assert.equal(role.status, 201, role.text);
  assert.ok(entryOf(role.body, 'rbac-tool', 'Update'));
  const before = (await get(`${cms}/r5`)) as any;
  const same = await suite.request(0, 'PUT', `${cms}/r5?fieldManager=noop`, before);
  assert.equal(same.status, 200);
  assert.equal((same.body as any).metadata.resourceVersion, before.metadata.resourceVersion);
  assert.equal(entryOf(same.body, 'noop'), undefined);
  // The same without managedFields (a client that does not know them): still nothing written.
  const { managedFields: _mf, ...metaWithout } = before.metadata;
  const bare = await suite.request(0, 'PUT', `${cms}/r5?fieldManager=noop`, {
    ...before,
    metadata: metaWithout,
  });
  assert.equal(bare.status, 200);
  assert.equal((bare.body as any).metadata.resourceVersion, before.metadata.resourceVersion);
  assert.deepEqual((bare.body as any).metadata.managedFields, before.metadata.managedFields);
});
