// A PUT that creates, under RBAC: the request is authorized as `update` by the filter, and when
// the object does not exist the handler asks for `create` as well (k8s handlers/update.go
// withAuthorization). A user allowed to update but not to create cannot create through PUT.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { grantClusterRole, sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'create-on-update';
const role = 'put-updater';
const group = 'put-updaters';
const cms = `/api/v1/namespaces/${ns}/configmaps`;
const as = { 'Impersonate-User': 'upd', 'Impersonate-Group': group };
const cm = (name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

before(async () => {
  suite = await sharedSuite();
  const created = await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  assert.equal(created.status, 201, created.text);
  const r = await suite.request(0, 'POST', '/apis/rbac.authorization.orch.io/v1/clusterroles', {
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'ClusterRole',
    metadata: { name: role },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'update'] }],
  });
  assert.equal(r.status, 201, r.text);
  await grantClusterRole(suite, role, group, { verb: 'update', resource: 'configmaps' });
});

after(async () => {
  const rbac = '/apis/rbac.authorization.orch.io/v1';
  await suite.request(0, 'DELETE', `${rbac}/clusterrolebindings/test-${role}-${group}`);
  await suite.request(0, 'DELETE', `${rbac}/clusterroles/${role}`);
  await suite.request(0, 'DELETE', `/api/v1/namespaces/${ns}`);
  await suite.stop();
});

test('a PUT that creates needs create: allowed to update only, it is 403 and stores nothing; the update of what exists passes', async () => {
  const put = (data: Record<string, string>, query = '') =>
    suite.request(0, 'PUT', `${cms}/c${query}`, cm('c', data), as);
  for (const query of ['', '?dryRun=All']) {
    const denied = await put({ a: '1' }, query);
    assert.equal(denied.status, 403, `PUT${query}: ${denied.text}`);
    assert.equal((denied.body as { message: string }).message, 'configmaps "c" is forbidden: ');
  }
  assert.equal((await suite.request(0, 'GET', `${cms}/c`)).status, 404, 'nothing stored');
  assert.equal((await suite.request(0, 'POST', cms, cm('c', { a: '1' }))).status, 201);
  const updated = await put({ a: '2' });
  assert.equal(updated.status, 200, updated.text);
  assert.deepEqual((updated.body as { data: unknown }).data, { a: '2' });
});
