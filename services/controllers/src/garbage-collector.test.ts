// The garbage collector and the service accounts controller against a real suite with the
// controllers process (its own certificate and RBAC roles, leading its Lease): Background,
// Foreground with and without blockOwnerDeletion, Orphan, an owner recreated with the same
// name, a cluster-scoped owner of a namespaced dependent, a cluster-scoped dependent naming a
// namespaced owner (invalid, left alone), a cross-namespace reference (dangling), and the
// `default` ServiceAccount created and recreated.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'gc';
const other = 'gc-other';
const cms = (n: string) => `/api/v1/namespaces/${n}/configmaps`;
const clusterRoles = '/apis/rbac.authorization.orch.io/v1/clusterroles';

interface Meta {
  name: string;
  uid: string;
  resourceVersion: string;
  finalizers?: string[];
  deletionTimestamp?: string;
  ownerReferences?: { uid: string }[];
}
const metaOf = (b: unknown): Meta => (b as { metadata: Meta }).metadata;
const wait = { timeoutMs: 30_000 };

async function post(path: string, body: Record<string, unknown>): Promise<Meta> {
  const r = await suite.request(0, 'POST', path, body);
  assert.equal(r.status, 201, r.text);
  return metaOf(r.body);
}

const cm = (name: string, meta: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...meta },
  data: { k: 'v' },
});
const ownerRef = (owner: Meta, extra: Record<string, unknown> = {}, kind = 'ConfigMap') => ({
  apiVersion: kind === 'ClusterRole' ? 'rbac.authorization.orch.io/v1' : 'v1',
  kind,
  name: owner.name,
  uid: owner.uid,
  ...extra,
});

async function del(path: string, options?: unknown): Promise<void> {
  const headers: Record<string, string> =
    options === undefined
      ? {}
      : { 'Content-Length': String(Buffer.byteLength(JSON.stringify(options))) };
  const r = await suite.request(0, 'DELETE', path, options, headers);
  assert.ok(r.status === 200 || r.status === 202, r.text);
}

const status = async (path: string): Promise<number> =>
  (await suite.request(0, 'GET', path)).status;
const gone = (path: string) => async () => (await status(path)) === 404;
const get = async (path: string): Promise<Meta> =>
  metaOf((await suite.request(0, 'GET', path)).body);

interface EventItem {
  reason: string;
  type: string;
  message: string;
  involvedObject: { name: string };
}
async function hasEvent(namespace: string, involved: string): Promise<boolean> {
  const r = await suite.request(0, 'GET', `/api/v1/namespaces/${namespace}/events`);
  const items = (r.body as { items?: EventItem[] }).items ?? [];
  return items.some(
    (e) =>
      e.involvedObject.name === involved &&
      e.reason === 'OwnerRefInvalidNamespace' &&
      e.type === 'Warning' &&
      /^ownerRef \[.+\] does not exist in namespace /.test(e.message)
  );
}

async function dropFinalizers(path: string): Promise<void> {
  const cur = (await suite.request(0, 'GET', path)).body as { metadata: Meta };
  cur.metadata.finalizers = [];
  const r = await suite.request(0, 'PUT', path, cur);
  assert.equal(r.status, 200, r.text);
}

before(async () => {
  suite = await sharedSuite({ controllers: true });
  for (const n of [ns, other]) await post('/api/v1/namespaces', { metadata: { name: n } });
});

after(async () => {
  await suite?.stop();
});

test('Background: the owner goes at once, its dependents after', async () => {
  const owner = await post(cms(ns), cm('bg-owner'));
  for (const n of ['bg-a', 'bg-b'])
    await post(cms(ns), cm(n, { ownerReferences: [ownerRef(owner)] }));
  await del(`${cms(ns)}/bg-owner`, { propagationPolicy: 'Background' });
  assert.equal(await status(`${cms(ns)}/bg-owner`), 404, 'the owner is removed by the delete');
  for (const n of ['bg-a', 'bg-b']) await waitFor(`${n} collected`, gone(`${cms(ns)}/${n}`), wait);
});

test('Foreground with blockOwnerDeletion: the owner waits with foregroundDeletion until the dependent is gone', async () => {
  const owner = await post(cms(ns), cm('fg-owner'));
  // The dependent holds a finalizer of its own, so its deletion can be seen before it ends.
  await post(
    cms(ns),
    cm('fg-dep', {
      finalizers: ['example.com/hold'],
      ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })],
    })
  );
  await del(`${cms(ns)}/fg-owner`, { propagationPolicy: 'Foreground' });
  await waitFor(
    'the dependent is being deleted',
    async () => !!(await get(`${cms(ns)}/fg-dep`)).deletionTimestamp,
    wait
  );
  const waiting = await get(`${cms(ns)}/fg-owner`);
  assert.deepEqual(waiting.finalizers, ['foregroundDeletion'], 'the owner waits');
  assert.ok(waiting.deletionTimestamp);
  await dropFinalizers(`${cms(ns)}/fg-dep`);
  await waitFor(
    'the owner goes once its blocking dependent is gone',
    gone(`${cms(ns)}/fg-owner`),
    wait
  );
});

test('Foreground without blockOwnerDeletion: the owner does not wait for the dependent', async () => {
  const owner = await post(cms(ns), cm('fgn-owner'));
  await post(
    cms(ns),
    cm('fgn-dep', { finalizers: ['example.com/hold'], ownerReferences: [ownerRef(owner)] })
  );
  await del(`${cms(ns)}/fgn-owner`, { propagationPolicy: 'Foreground' });
  await waitFor('the owner goes', gone(`${cms(ns)}/fgn-owner`), wait);
  await waitFor(
    'the dependent is deleted too',
    async () => !!(await get(`${cms(ns)}/fgn-dep`)).deletionTimestamp,
    wait
  );
  assert.equal(await status(`${cms(ns)}/fgn-dep`), 200, 'held by its own finalizer');
  await dropFinalizers(`${cms(ns)}/fgn-dep`);
});

test('Orphan: the dependents stay, their references to the owner removed, then the owner goes', async () => {
  const owner = await post(cms(ns), cm('or-owner'));
  const keep = await post(cms(ns), cm('or-keep'));
  await post(cms(ns), cm('or-dep', { ownerReferences: [ownerRef(owner), ownerRef(keep)] }));
  await del(`${cms(ns)}/or-owner`, { propagationPolicy: 'Orphan' });
  await waitFor('the owner goes once orphaning is done', gone(`${cms(ns)}/or-owner`), wait);
  const dep = await get(`${cms(ns)}/or-dep`);
  assert.deepEqual(
    dep.ownerReferences?.map((r) => r.uid),
    [keep.uid],
    'only the reference to the deleted owner is removed'
  );
});

test('an owner recreated with the same name is another owner: the old uid dependent is collected', async () => {
  const first = await post(cms(ns), cm('re-owner'));
  await del(`${cms(ns)}/re-owner`);
  const second = await post(cms(ns), cm('re-owner'));
  assert.notEqual(first.uid, second.uid);
  await post(cms(ns), cm('re-current', { ownerReferences: [ownerRef(second)] }));
  await post(cms(ns), cm('re-stale', { ownerReferences: [ownerRef(first)] }));
  await waitFor('the stale dependent is collected', gone(`${cms(ns)}/re-stale`), wait);
  assert.equal(await status(`${cms(ns)}/re-current`), 200, 'the current one stays');
});

test('a cluster-scoped owner of a namespaced dependent: kept while it exists, collected after', async () => {
  const owner = await post(clusterRoles, { metadata: { name: 'gc-cluster-owner' }, rules: [] });
  await post(cms(ns), cm('cl-dep', { ownerReferences: [ownerRef(owner, {}, 'ClusterRole')] }));
  assert.equal(await status(`${cms(ns)}/cl-dep`), 200);
  await del(`${clusterRoles}/gc-cluster-owner`);
  await waitFor('the namespaced dependent is collected', gone(`${cms(ns)}/cl-dep`), wait);
});

test('a cluster-scoped dependent naming a namespaced owner is invalid: logged, never collected', async () => {
  const absent = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    name: 'nowhere',
    uid: '00000000-0000-0000-0000-000000000001',
  };
  const absentCluster = {
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'ClusterRole',
    name: 'gc-no-such-role',
    uid: '00000000-0000-0000-0000-000000000002',
  };
  await post(clusterRoles, {
    metadata: { name: 'gc-invalid-dep', ownerReferences: [absent] },
    rules: [],
  });
  await post(clusterRoles, {
    metadata: { name: 'gc-dangling-dep', ownerReferences: [absentCluster] },
    rules: [],
  });
  await waitFor(
    'the dependent of an absent cluster-scoped owner is collected',
    gone(`${clusterRoles}/gc-dangling-dep`),
    wait
  );
  await waitFor(
    'the collector logs the invalid reference',
    async () =>
      suite
        .logTail('controllers', 400)
        .split('\n')
        .some((l) => l.includes('gc-invalid-dep') && l.includes('OwnerRefInvalidNamespace')),
    wait
  );
  assert.equal(await status(`${clusterRoles}/gc-invalid-dep`), 200, 'left alone');
  await waitFor(
    'a Warning OwnerRefInvalidNamespace event on it',
    () => hasEvent('default', 'gc-invalid-dep'),
    wait
  );
});

test('a reference to an owner in another namespace is dangling, as upstream: the dependent is collected', async () => {
  const owner = await post(cms(other), cm('xns-owner'));
  await post(cms(ns), cm('xns-dep', { ownerReferences: [ownerRef(owner)] }));
  await waitFor('the cross-namespace dependent is collected', gone(`${cms(ns)}/xns-dep`), wait);
  assert.equal(await status(`${cms(other)}/xns-owner`), 200);
  await waitFor(
    'a Warning OwnerRefInvalidNamespace event on it',
    () => hasEvent(ns, 'xns-dep'),
    wait
  );
});

test('serviceaccount: a default ServiceAccount in every new namespace, recreated when deleted', async () => {
  await post('/api/v1/namespaces', { metadata: { name: 'sa-ns' } });
  const path = '/api/v1/namespaces/sa-ns/serviceaccounts/default';
  await waitFor('default ServiceAccount created', async () => (await status(path)) === 200, wait);
  const firstUid = (await get(path)).uid;
  await del(path);
  await waitFor(
    'default ServiceAccount recreated',
    async () => {
      const r = await suite.request(0, 'GET', path);
      return r.status === 200 && metaOf(r.body).uid !== firstUid;
    },
    wait
  );
});

test('the controllers lead on the orch-system/orch-controller-manager Lease', async () => {
  const lease = (
    await suite.request(
      0,
      'GET',
      '/apis/coordination.orch.io/v1/namespaces/orch-system/leases/orch-controller-manager'
    )
  ).body as { spec: { holderIdentity: string; leaseDurationSeconds: number } };
  assert.match(lease.spec.holderIdentity, /^.+_[0-9a-f-]{36}$/, 'hostname_uuid');
  assert.equal(lease.spec.leaseDurationSeconds, 15);
});

test('each controller has its own ServiceAccount in orch-system, bound to its own role only', async () => {
  const sar = async (user: string, verb: string, resource: string): Promise<boolean> => {
    const r = await suite.request(
      0,
      'POST',
      '/apis/authorization.orch.io/v1/subjectaccessreviews',
      {
        apiVersion: 'authorization.orch.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user,
          groups: [
            'system:serviceaccounts',
            'system:serviceaccounts:orch-system',
            'system:authenticated',
          ],
          resourceAttributes: { verb, resource, namespace: ns },
        },
      }
    );
    return (r.body as { status: { allowed: boolean } }).status.allowed;
  };
  for (const sa of ['namespace-controller', 'garbage-collector', 'service-account-controller']) {
    assert.equal(await status(`/api/v1/namespaces/orch-system/serviceaccounts/${sa}`), 200, sa);
  }
  const saUser = (n: string) => `system:serviceaccount:orch-system:${n}`;
  assert.equal(await sar(saUser('service-account-controller'), 'create', 'serviceaccounts'), true);
  assert.equal(await sar(saUser('service-account-controller'), 'delete', 'configmaps'), false);
  assert.equal(await sar(saUser('garbage-collector'), 'delete', 'configmaps'), true);
  assert.equal(await sar(saUser('garbage-collector'), 'create', 'configmaps'), false);
});
