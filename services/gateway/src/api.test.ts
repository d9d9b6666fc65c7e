// The spec's tables as test tables, against a real suite (etcd, NATS, storage, gateway).
// Each case names the table and row it checks.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'tables';
const base = `/api/v1/namespaces/${ns}/configmaps`;
const rvOf = (b: unknown): string =>
  (b as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
const reasonOf = (b: unknown): string => (b as { reason?: string }).reason ?? '';
const cm = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels: { app: 'x' } },
  data: { a: '1' },
  ...extra,
});
let firstRv = '';

before(async () => {
  suite = await sharedSuite();
  assert.equal(
    (
      await suite.request(0, 'POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns },
      })
    ).status,
    201
  );
  for (let i = 0; i < 5; i++) {
    const r = await suite.request(0, 'POST', base, cm(`c${i}`));
    assert.equal(r.status, 201);
    if (i === 0) firstRv = rvOf(r.body);
  }
});

after(async () => {
  await suite.stop();
});

const list = (q: string) => suite.request(0, 'GET', `${base}?${q}`);

test('list table: RVM unset, limit unset — unset RV is Most recent, "0" Any, other Not older than', async () => {
  const recent = await list('');
  assert.equal(recent.status, 200);
  assert.equal((recent.body as { kind: string }).kind, 'ConfigMapList');
  assert.equal((recent.body as { items: unknown[] }).items.length, 5);
  assert.equal(reasonOf(recent.body), '');
  assert.equal((await list('resourceVersion=0')).status, 200);
  const notOlder = await list(`resourceVersion=${firstRv}`);
  assert.ok(Number(rvOf(notOlder.body)) >= Number(firstRv));
});

test('list table: RVM unset, limit=n, continue unset — other RV is Exact', async () => {
  const exact = await list(`resourceVersion=${firstRv}&limit=10`);
  assert.equal(exact.status, 200);
  assert.equal(rvOf(exact.body), firstRv, 'the collection version equals the request');
  assert.equal(
    (exact.body as { items: unknown[] }).items.length,
    1,
    'only what existed at that version'
  );
});

test('list table: limit=n with continue — token version exact, RV "0" treated as token, other RV 400', async () => {
  const p1 = await list('limit=2');
  const meta = (p1.body as { metadata: { continue: string; remainingItemCount: number } }).metadata;
  assert.equal(meta.remainingItemCount, 3);
  await suite.request(0, 'POST', base, cm('late'));
  const p2 = await list(`limit=2&continue=${meta.continue}`);
  assert.equal(rvOf(p2.body), rvOf(p1.body), 'constant across chunks');
  const p2zero = await list(`limit=2&continue=${meta.continue}&resourceVersion=0`);
  assert.equal(p2zero.status, 200);
  assert.equal(rvOf(p2zero.body), rvOf(p1.body));
  const bad = await list(`limit=2&continue=${meta.continue}&resourceVersion=${firstRv}`);
  assert.equal(bad.status, 400);
  assert.equal(reasonOf(bad.body), 'BadRequest');
  await suite.request(0, 'DELETE', `${base}/late`);
});

test('list table: RVM=Exact — unset and "0" invalid, other Exact', async () => {
  assert.equal((await list('resourceVersionMatch=Exact')).status, 400);
  assert.equal((await list('resourceVersionMatch=Exact&resourceVersion=0')).status, 400);
  const r = await list(`resourceVersionMatch=Exact&resourceVersion=${firstRv}`);
  assert.equal(r.status, 200);
  assert.equal(rvOf(r.body), firstRv);
});

test('list table: RVM=NotOlderThan — unset invalid, "0" Any, other Not older than', async () => {
  assert.equal((await list('resourceVersionMatch=NotOlderThan')).status, 400);
  assert.equal((await list('resourceVersionMatch=NotOlderThan&resourceVersion=0')).status, 200);
  const r = await list(`resourceVersionMatch=NotOlderThan&resourceVersion=${firstRv}`);
  assert.ok(Number(rvOf(r.body)) >= Number(firstRv));
  assert.equal((await list('resourceVersionMatch=Bogus&resourceVersion=1')).status, 400);
  const withContinue = await list(`resourceVersionMatch=NotOlderThan&resourceVersion=1&continue=x`);
  assert.equal(withContinue.status, 400);
});

test('list table: remainingItemCount omitted with a selector or when complete', async () => {
  const sel = await list('limit=2&labelSelector=app%3Dx');
  assert.equal(
    (sel.body as { metadata: Record<string, unknown> }).metadata['remainingItemCount'],
    undefined
  );
  const all = await list('limit=100');
  assert.equal(
    (all.body as { metadata: Record<string, unknown> }).metadata['remainingItemCount'],
    undefined
  );
  assert.equal((all.body as { metadata: Record<string, unknown> }).metadata['continue'], undefined);
});

test('get table: unset is Most recent, "0" Any, other Not older than; a future version is 504', async () => {
  assert.equal((await suite.request(0, 'GET', `${base}/c0`)).status, 200);
  assert.equal((await suite.request(0, 'GET', `${base}/c0?resourceVersion=0`)).status, 200);
  assert.equal(
    (await suite.request(0, 'GET', `${base}/c0?resourceVersion=${firstRv}`)).status,
    200
  );
  const future = await suite.request(0, 'GET', `${base}/c0?resourceVersion=99999999`);
  assert.equal(future.status, 504);
  assert.match((future.body as { message: string }).message, /Too large resource version/);
});

test('errors table: malformed JSON, wrong kind, name and namespace mismatches are 400 and store nothing', async () => {
  const cases: [string, string, string, unknown][] = [
    ['malformed JSON', 'POST', base, '{"apiVersion": "v1", "kind": '],
    ['wrong kind', 'POST', base, { ...cm('wrongkind'), kind: 'Secret' }],
    ['wrong apiVersion', 'POST', base, { ...cm('wrongapi'), apiVersion: 'apps/v1' }],
    [
      'namespace mismatch',
      'POST',
      base,
      { ...cm('nsmismatch'), metadata: { name: 'nsmismatch', namespace: 'other' } },
    ],
    ['name mismatch', 'PUT', `${base}/c1`, cm('c2')],
    ['dryRun=Bogus', 'POST', `${base}?dryRun=Bogus`, cm('dry')],
  ];
  for (const [name, method, path, body] of cases) {
    const r = await suite.request(0, method, path, body);
    assert.equal(r.status, 400, name);
    assert.equal(reasonOf(r.body), 'BadRequest', name);
    assert.ok((r.body as { message: string }).message.length > 0, name);
  }
  const items = (await list('')).body as { items: { metadata: { name: string } }[] };
  assert.deepEqual(
    items.items.map((i) => i.metadata.name),
    ['c0', 'c1', 'c2', 'c3', 'c4']
  );
});

test('errors table: 404, 409 AlreadyExists, 409 Conflict on a stale resourceVersion, 406, 415, 413', async () => {
  assert.equal(reasonOf((await suite.request(0, 'GET', `${base}/nope`)).body), 'NotFound');
  assert.equal(reasonOf((await suite.request(0, 'POST', base, cm('c0'))).body), 'AlreadyExists');
  const stale = await suite.request(0, 'PUT', `${base}/c0`, {
    ...cm('c0'),
    metadata: { name: 'c0', resourceVersion: '1' },
  });
  assert.equal(stale.status, 409);
  assert.equal(reasonOf(stale.body), 'Conflict');
  const notAcceptable = await suite.request(0, 'GET', `${base}/c0`, undefined, {
    Accept: 'application/vnd.unknown',
  });
  assert.equal(notAcceptable.status, 406);
  const unsupported = await suite.request(0, 'PATCH', `${base}/c0`, '{}', {
    'Content-Type': 'application/x-unknown-patch+json',
  });
  assert.equal(unsupported.status, 415);
  const big = await suite.request(0, 'POST', base, {
    ...cm('big'),
    data: { a: 'x'.repeat(3.5 * 1024 * 1024) },
  });
  assert.equal(big.status, 413);
  // A ConfigMap's data is limited to 1 MiB (upstream's ValidateConfigMap) before any store limit.
  const overConfigMapLimit = await suite.request(0, 'POST', base, {
    ...cm('big2'),
    data: { a: 'x'.repeat(2 * 1024 * 1024) },
  });
  assert.equal(overConfigMapLimit.status, 422);
  assert.equal((await suite.request(0, 'GET', `${base}/big2`)).status, 404);
  // A kind without such a rule (a ServiceAccount listing many secrets) meets the store's limit.
  const tooBigForEtcd = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'big3' },
    secrets: Array.from({ length: 16000 }, (_, i) => ({ name: `${'s'.repeat(120)}-${i}` })),
  });
  assert.equal(tooBigForEtcd.status, 413, 'over the store limit is a clear 4xx, not a 500');
  assert.equal(
    (await suite.request(0, 'GET', '/api/v1/namespaces/missing/configmaps/x')).status,
    404
  );
  const missingNs = await suite.request(
    0,
    'POST',
    '/api/v1/namespaces/missing/configmaps',
    cm('x')
  );
  assert.equal(missingNs.status, 404);
});

test('dry run runs every stage but the write', async () => {
  const r = await suite.request(0, 'POST', `${base}?dryRun=All`, cm('dry'));
  assert.equal(r.status, 201);
  assert.equal((r.body as { metadata: { name: string } }).metadata.name, 'dry');
  assert.equal((await suite.request(0, 'GET', `${base}/dry`)).status, 404);
  const bare = await suite.request(0, 'DELETE', `${base}/c4?dryRun`);
  assert.equal(bare.status, 200);
  assert.equal((await suite.request(0, 'GET', `${base}/c4`)).status, 200);
});

test('negotiation before any write: an answer Accept cannot take is 406 and stores nothing', async () => {
  const unservable = { Accept: 'application/x-unknown' };
  const mergePatch = { ...unservable, 'Content-Type': 'application/merge-patch+json' };
  const post = await suite.request(0, 'POST', base, cm('neg'), unservable);
  assert.equal(post.status, 406);
  assert.equal(reasonOf(post.body), 'NotAcceptable');
  assert.equal((await suite.request(0, 'GET', `${base}/neg`)).status, 404, 'POST stored nothing');
  const put = await suite.request(0, 'PUT', `${base}/neg`, cm('neg'), unservable);
  assert.equal(put.status, 406);
  assert.equal((await suite.request(0, 'GET', `${base}/neg`)).status, 404, 'PUT created nothing');
  const before = await suite.request(0, 'GET', `${base}/c1`);
  const patch = await suite.request(0, 'PATCH', `${base}/c1`, { data: { a: 'x' } }, mergePatch);
  assert.equal(patch.status, 406);
  const del = await suite.request(0, 'DELETE', `${base}/c1`, undefined, unservable);
  assert.equal(del.status, 406);
  const selected = `${base}?labelSelector=app%3Dx`;
  const all = await suite.request(0, 'DELETE', selected, undefined, unservable);
  assert.equal(all.status, 406);
  const after = await suite.request(0, 'GET', `${base}/c1`);
  assert.equal(after.status, 200, 'neither delete removed it');
  assert.equal(rvOf(after.body), rvOf(before.body), 'PATCH wrote nothing');
  const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } };
  const table = { Accept: 'application/json;as=Table;g=meta.orch.io;v=v1' };
  const put2 = await suite.request(0, 'PUT', `/api/v1/namespaces/${ns}`, namespace, table);
  assert.equal(put2.status, 406, 'a Table is no answer to a write');
});

test('REST roles: a verb the REST object lacks is 405; a subresource without one is 404', async () => {
  const pods = `/api/v1/namespaces/${ns}/pods`;
  const spec = { containers: [{ name: 'c', image: 'x' }] };
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'roles' }, spec };
  assert.equal((await suite.request(0, 'POST', pods, pod)).status, 201);
  const status = (method: string, body?: unknown) =>
    suite.request(0, method, `${pods}/roles/status`, body);
  assert.equal((await status('GET')).status, 200, 'status has a getter');
  assert.equal((await status('DELETE')).status, 405, 'status has no deleter');
  assert.equal((await status('POST', {})).status, 405, 'status has no creater');
  const named = await suite.request(0, 'POST', `${base}/c0`, cm('c0'));
  assert.equal(named.status, 405, 'create names no object');
  const noStatus = await suite.request(0, 'GET', `${base}/c0/status`);
  assert.equal(noStatus.status, 404, 'configmaps have no status subresource');
  const reviews = '/apis/authorization.orch.io/v1/subjectaccessreviews';
  assert.equal((await suite.request(0, 'GET', reviews)).status, 405, 'reviews have no lister');
  assert.equal((await suite.request(0, 'DELETE', `${reviews}/x`)).status, 405, 'nor a deleter');
  const tokenReviews = '/apis/authentication.orch.io/v1/tokenreviews';
  assert.equal((await suite.request(0, 'GET', tokenReviews)).status, 405);
});

test('namespace finalize subresource: writes only spec.finalizers, raises no generation', async () => {
  const name = 'finalize-rest';
  const namespace = (n: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: n } });
  const created = await suite.request(0, 'POST', '/api/v1/namespaces', namespace(name));
  assert.equal(created.status, 201);
  const gen = (created.body as { metadata: { generation: number } }).metadata.generation;
  const body = {
    ...namespace(name),
    metadata: { name, labels: { sneaked: 'in' } },
    spec: { finalizers: [] },
    status: { phase: 'Terminating' },
  };
  const fin = await suite.request(0, 'PUT', `/api/v1/namespaces/${name}/finalize`, body);
  assert.equal(fin.status, 200, JSON.stringify(fin.body));
  const out = fin.body as {
    metadata: { labels?: unknown; generation: number };
    spec: { finalizers: string[] };
    status: { phase: string };
  };
  assert.deepEqual(out.spec.finalizers, []);
  assert.equal(out.metadata.labels, undefined, 'metadata is not written through finalize');
  assert.equal(out.status.phase, 'Active', 'status is not written through finalize');
  assert.equal(out.metadata.generation, gen);
  const absent = { ...body, metadata: { name: 'absent-ns' } };
  const none = await suite.request(0, 'PUT', '/api/v1/namespaces/absent-ns/finalize', absent);
  assert.equal(none.status, 404, 'finalize creates nothing');
});

test('status subresource: main writes keep status, status writes change nothing else; generation follows spec', async () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'c', image: 'x' }] },
    status: { phase: 'Running' },
  };
  const created = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/pods`, pod);
  assert.equal(created.status, 201);
  assert.deepEqual(
    (created.body as { status?: unknown }).status,
    { phase: 'Pending', qosClass: 'BestEffort' },
    "the client's status is replaced by the one a pod starts with (PrepareForCreate)"
  );
  const st = await suite.request(
    0,
    'PATCH',
    `/api/v1/namespaces/${ns}/pods/p/status`,
    { status: { phase: 'Running' }, spec: { nodeName: 'n1' } },
    { 'Content-Type': 'application/merge-patch+json' }
  );
  assert.equal(st.status, 200);
  assert.deepEqual((st.body as { status: unknown }).status, {
    phase: 'Running',
    qosClass: 'BestEffort',
  });
  assert.equal(
    (st.body as { spec: { nodeName?: string } }).spec.nodeName,
    undefined,
    'a status write changes nothing else'
  );
  const main = await suite.request(
    0,
    'PATCH',
    `/api/v1/namespaces/${ns}/pods/p`,
    // activeDeadlineSeconds: one of the few fields a pod update may change (ValidatePodUpdate)
    { status: { phase: 'Failed' }, spec: { activeDeadlineSeconds: 60 } },
    { 'Content-Type': 'application/merge-patch+json' }
  );
  assert.deepEqual(
    (main.body as { status: unknown }).status,
    { phase: 'Running', qosClass: 'BestEffort' },
    'a main write keeps status'
  );
  assert.equal((main.body as { metadata: { generation: number } }).metadata.generation, 2);
});

test('deletion table: finalizers keep the object (deletionTimestamp) until the last one goes, then it is removed', async () => {
  await suite.request(
    0,
    'POST',
    base,
    cm('fin', { metadata: { name: 'fin', finalizers: ['a.orch.io/x', 'b.orch.io/y'] } })
  );
  const del = await suite.request(0, 'DELETE', `${base}/fin`);
  assert.ok(del.status === 200 || del.status === 202);
  const marked = await suite.request(0, 'GET', `${base}/fin`);
  assert.ok(
    (marked.body as { metadata: { deletionTimestamp?: string } }).metadata.deletionTimestamp
  );
  await suite.request(
    0,
    'PATCH',
    `${base}/fin`,
    [{ op: 'replace', path: '/metadata/finalizers', value: ['b.orch.io/y'] }],
    { 'Content-Type': 'application/json-patch+json' }
  );
  assert.equal(
    (await suite.request(0, 'GET', `${base}/fin`)).status,
    200,
    'finalizing while one remains'
  );
  await suite.request(
    0,
    'PATCH',
    `${base}/fin`,
    { metadata: { finalizers: null } },
    { 'Content-Type': 'application/merge-patch+json' }
  );
  assert.equal(
    (await suite.request(0, 'GET', `${base}/fin`)).status,
    404,
    'removed with the last finalizer'
  );
});

test('health: verbose checks, exclude, single checks', async () => {
  const r = await suite.request(0, 'GET', '/readyz?verbose', undefined, { Accept: '*/*' });
  assert.equal(r.status, 200);
  assert.match(r.text, /\[\+\]etcd ok/);
  assert.match(r.text, /\[\+\]informer-sync ok/);
  // The system namespaces and priority classes exist (post-start hooks that wait until they do).
  assert.match(r.text, /\[\+\]poststarthook\/start-system-namespaces-controller ok/);
  assert.match(r.text, /\[\+\]poststarthook\/scheduling\/bootstrap-system-priority-classes ok/);
  // The local APIServices exist and are Available.
  assert.match(r.text, /\[\+\]autoregister-completion ok/);
  assert.match(r.text, /readyz check passed/);
  assert.match(
    (await suite.request(0, 'GET', '/readyz?verbose&exclude=nats')).text,
    /\[\+\]nats excluded: ok/
  );
  assert.equal((await suite.request(0, 'GET', '/livez/etcd')).status, 200);
  assert.equal((await suite.request(0, 'GET', '/readyz/nope')).status, 404);
});

test('metrics count requests by verb, resource and code', async () => {
  const r = await suite.request(0, 'GET', '/metrics', undefined, { Accept: 'text/plain' });
  assert.match(
    r.text,
    /orch_gateway_request_total\{verb="LIST",group="",version="v1",resource="configmaps",subresource="",scope="namespace",code="200"\} \d+/
  );
  assert.match(r.text, /orch_gateway_storage_request_duration_seconds_bucket/);
});
