// RBAC end to end with kubectl: a user with a client certificate from the cluster CA, bound to
// the aggregated `view` role in one namespace, reads there and is 403 elsewhere and on writes;
// access reviews answer both ways through `kubectl create --raw`; a namespace admin cannot
// grant themselves cluster-admin. Anonymous requests reach health and version only.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedSuite, userKubeconfig, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

let suite: Suite;
let dave: string;
const dir = mkdtempSync(join(tmpdir(), 'orch-rbac-'));

const kubectl = (kubeconfig: string, args: string[], input?: string) =>
  runKubectl(kubeconfig, join(dir, 'cache'), args, input);
const admin = (args: string[], input?: string) => kubectl(suite.kubeconfigs[0]!, args, input);
const asDave = (args: string[], input?: string) => kubectl(dave, args, input);

/** POSTs a review with `kubectl create --raw` and returns the answered object. */
async function review(
  as: typeof admin,
  path: string,
  body: unknown
): Promise<{ code: number; obj: { status?: Record<string, unknown> }; stderr: string }> {
  const file = join(dir, `review-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(body));
  const r = await as(['create', '--raw', path, '-f', file]);
  return {
    code: r.code,
    obj: r.code === 0 ? (JSON.parse(r.stdout) as { status?: Record<string, unknown> }) : {},
    stderr: r.stderr,
  };
}

const binding = (name: string, ns: string, kind: string, role: string, user: string) =>
  `apiVersion: rbac.authorization.orch.io/v1\nkind: RoleBinding\nmetadata:\n  name: ${name}\n  namespace: ${ns}\nroleRef:\n  apiGroup: rbac.authorization.orch.io\n  kind: ${kind}\n  name: ${role}\nsubjects:\n- kind: User\n  apiGroup: rbac.authorization.orch.io\n  name: ${user}\n`;

before(async () => {
  suite = await sharedSuite();
  dave = (await userKubeconfig(suite.pki, suite.gateways[0]!, 'dave', ['devs'])).kubeconfig;
  for (const ns of ['team-a', 'team-b']) {
    // Typed helpers (`kubectl create namespace`) send protobuf, which the codec issue adds.
    const created = await admin(
      ['create', '-f', '-'],
      `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`
    );
    assert.equal(created.code, 0, created.stderr);
    const cm = await admin(
      ['create', '-f', '-'],
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: ${ns}\ndata:\n  color: blue\n`
    );
    assert.equal(cm.code, 0, cm.stderr);
  }
  const b = await admin(
    ['create', '-f', '-'],
    binding('dave-view', 'team-a', 'ClusterRole', 'view', 'dave')
  );
  assert.equal(b.code, 0, b.stderr);
});

after(async () => {
  await suite.stop();
});

test('a RoleBinding to view in one namespace: reads there, 403 elsewhere and on writes', async () => {
  await waitFor(
    'dave can list configmaps in team-a',
    async () => (await asDave(['-n', 'team-a', 'get', 'configmaps', '-o', 'name'])).code === 0,
    { timeoutMs: 10_000, intervalMs: 200 }
  );
  const got = await asDave([
    '-n',
    'team-a',
    'get',
    'configmap',
    'settings',
    '-o',
    'jsonpath={.data.color}',
  ]);
  assert.equal(got.stdout, 'blue');

  const other = await asDave(['-n', 'team-b', 'get', 'configmaps']);
  assert.notEqual(other.code, 0);
  assert.match(
    other.stderr,
    /Forbidden.*configmaps is forbidden: User "dave" cannot list resource "configmaps" in API group "" in the namespace "team-b"/
  );

  const del = await asDave(['-n', 'team-a', 'delete', 'configmap', 'settings']);
  assert.notEqual(del.code, 0);
  assert.match(
    del.stderr,
    /configmaps "settings" is forbidden: User "dave" cannot delete resource "configmaps" in API group "" in the namespace "team-a"/
  );

  const all = await asDave(['get', 'configmaps', '--all-namespaces']);
  assert.notEqual(all.code, 0, 'a cross-namespace list needs a cluster-wide grant');
  assert.match(
    all.stderr,
    /cannot list resource "configmaps" in API group "" at the cluster scope/
  );
  const secrets = await asDave(['-n', 'team-a', 'get', 'secrets']);
  assert.notEqual(secrets.code, 0, 'view does not include secrets');
});

test('access reviews answer both ways', async () => {
  const ssar = (namespace: string, verb = 'get') => ({
    apiVersion: 'authorization.orch.io/v1',
    kind: 'SelfSubjectAccessReview',
    spec: { resourceAttributes: { namespace, verb, resource: 'configmaps' } },
  });
  const yes = await review(
    asDave,
    '/apis/authorization.orch.io/v1/selfsubjectaccessreviews',
    ssar('team-a')
  );
  assert.equal(yes.code, 0, yes.stderr);
  assert.equal(yes.obj.status?.['allowed'], true);
  assert.match(String(yes.obj.status?.['reason']), /RoleBinding "dave-view"/);
  const no = await review(
    asDave,
    '/apis/authorization.orch.io/v1/selfsubjectaccessreviews',
    ssar('team-b')
  );
  assert.equal(no.obj.status?.['allowed'], false);

  const sar = (user: string, namespace: string) => ({
    apiVersion: 'authorization.orch.io/v1',
    kind: 'SubjectAccessReview',
    spec: {
      user,
      groups: ['system:authenticated'],
      resourceAttributes: { namespace, verb: 'list', resource: 'configmaps' },
    },
  });
  assert.equal(
    (
      await review(
        admin,
        '/apis/authorization.orch.io/v1/subjectaccessreviews',
        sar('dave', 'team-a')
      )
    ).obj.status?.['allowed'],
    true
  );
  assert.equal(
    (
      await review(
        admin,
        '/apis/authorization.orch.io/v1/subjectaccessreviews',
        sar('dave', 'team-b')
      )
    ).obj.status?.['allowed'],
    false
  );
  // dave may not ask about others: SubjectAccessReview is not in basic-user.
  const denied = await review(
    asDave,
    '/apis/authorization.orch.io/v1/subjectaccessreviews',
    sar('dave', 'team-a')
  );
  assert.notEqual(denied.code, 0);
  assert.match(denied.stderr, /forbidden/);
  const invalid = await review(admin, '/apis/authorization.orch.io/v1/subjectaccessreviews', {
    apiVersion: 'authorization.orch.io/v1',
    kind: 'SubjectAccessReview',
    spec: { user: 'dave' },
  });
  assert.notEqual(invalid.code, 0);
  assert.match(
    invalid.stderr,
    /exactly one of nonResourceAttributes or resourceAttributes must be specified/
  );

  const local = (ns: string) => ({
    apiVersion: 'authorization.orch.io/v1',
    kind: 'LocalSubjectAccessReview',
    metadata: { namespace: 'team-a' },
    spec: {
      user: 'dave',
      resourceAttributes: { namespace: ns, verb: 'get', resource: 'configmaps' },
    },
  });
  const lsar = await review(
    admin,
    '/apis/authorization.orch.io/v1/namespaces/team-a/localsubjectaccessreviews',
    local('team-a')
  );
  assert.equal(lsar.obj.status?.['allowed'], true, lsar.stderr);
  const mismatch = await review(
    admin,
    '/apis/authorization.orch.io/v1/namespaces/team-a/localsubjectaccessreviews',
    local('team-b')
  );
  assert.notEqual(mismatch.code, 0);
  assert.match(mismatch.stderr, /must match namespace/);

  const rules = await review(asDave, '/apis/authorization.orch.io/v1/selfsubjectrulesreviews', {
    apiVersion: 'authorization.orch.io/v1',
    kind: 'SelfSubjectRulesReview',
    spec: { namespace: 'team-a' },
  });
  const rr = (rules.obj.status?.['resourceRules'] ?? []) as {
    verbs: string[];
    resources: string[];
  }[];
  assert.ok(
    rr.some((r) => r.resources.includes('configmaps') && r.verbs.includes('list')),
    JSON.stringify(rules.obj)
  );
  const elsewhere = await review(asDave, '/apis/authorization.orch.io/v1/selfsubjectrulesreviews', {
    apiVersion: 'authorization.orch.io/v1',
    kind: 'SelfSubjectRulesReview',
    spec: { namespace: 'team-b' },
  });
  const rb = (elsewhere.obj.status?.['resourceRules'] ?? []) as { resources: string[] }[];
  assert.ok(!rb.some((r) => r.resources.includes('configmaps')));
});

test('escalation: a namespace admin cannot grant themselves cluster-admin, but can grant what they hold', async () => {
  const b = await admin(
    ['create', '-f', '-'],
    binding('dave-admin', 'team-a', 'ClusterRole', 'admin', 'dave')
  );
  assert.equal(b.code, 0, b.stderr);
  await waitFor(
    'dave may create rolebindings in team-a',
    async () => {
      const r = await review(asDave, '/apis/authorization.orch.io/v1/selfsubjectaccessreviews', {
        apiVersion: 'authorization.orch.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: {
          resourceAttributes: {
            namespace: 'team-a',
            verb: 'create',
            group: 'rbac.authorization.orch.io',
            resource: 'rolebindings',
          },
        },
      });
      return r.obj.status?.['allowed'] === true;
    },
    { timeoutMs: 10_000, intervalMs: 200 }
  );

  const grab = await asDave(
    ['create', '-f', '-'],
    binding('dave-root', 'team-a', 'ClusterRole', 'cluster-admin', 'dave')
  );
  assert.notEqual(grab.code, 0);
  assert.match(
    grab.stderr,
    /rolebindings.rbac.authorization.orch.io "dave-root" is forbidden: user "dave" .* is attempting to grant RBAC permissions not currently held/
  );
  const crb = await asDave(
    ['create', '-f', '-'],
    'apiVersion: rbac.authorization.orch.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: dave-root\nroleRef:\n  apiGroup: rbac.authorization.orch.io\n  kind: ClusterRole\n  name: cluster-admin\nsubjects:\n- kind: User\n  name: dave\n'
  );
  assert.notEqual(crb.code, 0);
  assert.match(crb.stderr, /cannot create resource "clusterrolebindings"/);
  const role = await asDave(
    ['create', '-f', '-'],
    'apiVersion: rbac.authorization.orch.io/v1\nkind: Role\nmetadata:\n  name: node-reader\n  namespace: team-a\nrules:\n- apiGroups: [""]\n  resources: ["nodes"]\n  verbs: ["get"]\n'
  );
  assert.notEqual(role.code, 0);
  assert.match(
    role.stderr,
    /attempting to grant RBAC permissions not currently held:\s*\{APIGroups:\[""\], Resources:\["nodes"\], Verbs:\["get"\]\}/
  );

  const ok = await asDave(
    ['create', '-f', '-'],
    binding('erin-view', 'team-a', 'ClusterRole', 'view', 'erin')
  );
  assert.equal(ok.code, 0, ok.stderr);
  const okRole = await asDave(
    ['create', '-f', '-'],
    'apiVersion: rbac.authorization.orch.io/v1\nkind: Role\nmetadata:\n  name: cm-reader\n  namespace: team-a\nrules:\n- apiGroups: [""]\n  resources: ["configmaps"]\n  verbs: ["get", "list"]\n'
  );
  assert.equal(okRole.code, 0, okRole.stderr);
});

test('anonymous requests reach health and version only', async () => {
  const get = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        new URL(path, suite.gateways[0]),
        { ca: readFileSync(suite.pki.caFile) },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }
      );
      req.on('error', reject);
      req.end();
    });
  assert.equal(await get('/healthz'), 200);
  assert.equal(await get('/readyz'), 200);
  assert.equal(await get('/version'), 200);
  assert.equal(await get('/api/v1/namespaces'), 403); // the authorizer decides for system:anonymous
});
