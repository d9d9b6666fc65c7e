// pods/exec over WebSocket under RBAC: the upgrade arrives as GET and is authorized as `get` by
// the filter; the handler asks for `create` as well, as a POST (SPDY) needs it. A user allowed
// only `get` on pods/exec is refused with the filter's message; one allowed both reaches the
// REST object (whose answer, for a pod on no node, is upstream's 400).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { grantClusterRole, sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'connect-create-on-get';
const rbac = '/apis/rbac.authorization.orch.io/v1';
const roles = { 'exec-get-only': ['get'], 'exec-get-create': ['get', 'create'] };
const exec = `/api/v1/namespaces/${ns}/pods/p/exec?command=true&stdout=true`;
const upgrade = { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13' };
const as = (role: string) => ({ 'Impersonate-User': `u-${role}`, 'Impersonate-Group': role });

before(async () => {
  suite = await sharedSuite();
  const created = await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  assert.equal(created.status, 201, created.text);
  const pod = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/pods`, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] },
  });
  assert.equal(pod.status, 201, pod.text);
  for (const [role, verbs] of Object.entries(roles)) {
    const r = await suite.request(0, 'POST', `${rbac}/clusterroles`, {
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'ClusterRole',
      metadata: { name: role },
      rules: [
        { apiGroups: [''], resources: ['pods/exec'], verbs },
        { apiGroups: [''], resources: ['namespaces'], verbs: ['get'] },
      ],
    });
    assert.equal(r.status, 201, r.text);
    await grantClusterRole(suite, role, role);
  }
});

after(async () => {
  for (const role of Object.keys(roles)) {
    await suite.request(0, 'DELETE', `${rbac}/clusterrolebindings/test-${role}-${role}`);
    await suite.request(0, 'DELETE', `${rbac}/clusterroles/${role}`);
  }
  await suite.request(0, 'DELETE', `/api/v1/namespaces/${ns}`);
  await suite.stop();
});

test('a WebSocket exec allowed only get is 403 naming create; with create it reaches the pod', async () => {
  const denied = await suite.request(0, 'GET', exec, undefined, {
    ...upgrade,
    ...as('exec-get-only'),
  });
  assert.equal(denied.status, 403, denied.text);
  assert.equal(
    (denied.body as { message: string }).message,
    `pods "p" is forbidden: User "u-exec-get-only" cannot create resource "pods/exec" in API group "" in the namespace "${ns}"`
  );
  const allowed = await suite.request(0, 'GET', exec, undefined, {
    ...upgrade,
    ...as('exec-get-create'),
  });
  assert.equal(allowed.status, 400, allowed.text);
  assert.equal(
    (allowed.body as { message: string }).message,
    'pod p does not have a host assigned'
  );
});
