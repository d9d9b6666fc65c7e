// RBAC on custom resources with the real kubectl, one suite with the controllers on
// and Prometheus Operator's published ServiceMonitor CRD: users bound in one namespace to the
// aggregated `edit` and `view` roles are Forbidden on ServiceMonitors (403, upstream's message
// naming the resource and its group) until ClusterRoles labelled for aggregation grant them, as
// upstream documents for custom resources ("Aggregated ClusterRoles": one role labelled
// aggregate-to-admin and aggregate-to-edit with the write verbs, one labelled aggregate-to-view
// with the read verbs). `kubectl auth can-i --as` (a SelfSubjectAccessReview under
// impersonation) and real requests with each user's own certificate agree at every step.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSuite, userKubeconfig, waitFor } from '@orch/testing';
import type { Suite, UserCredentials } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'crds');
const dir = mkdtempSync(join(tmpdir(), 'orch-cr-rbac-'));
const ns = 'monitoring';
const servicemonitors = `/apis/monitoring.coreos.com/v1/namespaces/${ns}/servicemonitors`;
const rbacGroup = 'rbac.authorization.orch.io';
const aggregateTo = (role: string) => `${rbacGroup}/aggregate-to-${role}`;

const serviceMonitor = (name: string) =>
  JSON.stringify({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { name, namespace: ns },
    spec: { selector: { matchLabels: { app: name } }, endpoints: [{ port: 'metrics' }] },
  });

const clusterRole = (name: string, labels: Record<string, string>, verbs: string[]) =>
  JSON.stringify({
    apiVersion: `${rbacGroup}/v1`,
    kind: 'ClusterRole',
    metadata: { name, labels },
    rules: [{ apiGroups: ['monitoring.coreos.com'], resources: ['servicemonitors'], verbs }],
  });

const roleBinding = (user: string, role: string) =>
  JSON.stringify({
    apiVersion: `${rbacGroup}/v1`,
    kind: 'RoleBinding',
    metadata: { name: `${user}-${role}`, namespace: ns },
    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: role },
    subjects: [{ kind: 'User', apiGroup: rbacGroup, name: user }],
  });

/** Upstream's forbidden message (authorization/forbidden.go) for a namespaced collection verb. */
const forbidden = (user: string, verb: string) =>
  `servicemonitors.monitoring.coreos.com is forbidden: User "${user}" cannot ${verb} resource ` +
  `"servicemonitors" in API group "monitoring.coreos.com" in the namespace "${ns}"`;

describe('RBAC on custom resources through aggregated roles', () => {
  let suite: Suite;
  const users: Record<string, UserCredentials> = {};
  const kubectl = (kubeconfig: string, args: string[], input?: string) =>
    runKubectl(kubeconfig, join(dir, 'cache'), args, input);
  const admin = (args: string[], input?: string) => kubectl(suite.kubeconfigs[0]!, args, input);
  const as = (user: string, args: string[], input?: string) =>
    kubectl(users[user]!.kubeconfig, args, input);
  /** `kubectl auth can-i` as the admin impersonating `user`: true for "yes", false for "no". */
  const canI = async (user: string, verb: string): Promise<boolean> => {
    const r = await admin(['auth', 'can-i', verb, 'servicemonitors', '-n', ns, `--as=${user}`]);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    assert.equal(r.stdout.trim(), r.code === 0 ? 'yes' : 'no', r.stderr);
    return r.code === 0;
  };
  const until = (what: string, ok: () => Promise<boolean>) =>
    waitFor(what, ok, { timeoutMs: 20_000, intervalMs: 100 });
  /** A request with `user`'s own client certificate, its status and body. */
  const raw = (user: string, method: string, path: string, body?: string) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = request(
        new URL(path, suite.gateways[0]),
        {
          method,
          ca: readFileSync(suite.pki.caFile),
          cert: readFileSync(users[user]!.certFile),
          key: readFileSync(users[user]!.keyFile),
          headers: { 'content-type': 'application/json', accept: 'application/json' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'),
            })
          );
        }
      );
      req.on('error', reject);
      req.end(body);
    });

  before(async () => {
    suite = await startSuite({ controllers: true });
    const created = await admin(
      ['create', '-f', '-'],
      `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`
    );
    assert.equal(created.code, 0, created.stderr);
    const crd = await admin([
      'apply',
      '-f',
      join(fixtures, 'servicemonitors.monitoring.coreos.com.yaml'),
    ]);
    assert.equal(crd.code, 0, crd.stderr);
    await until(
      'servicemonitors served',
      async () => (await suite.request(0, 'GET', servicemonitors)).status === 200
    );
    for (const [user, role] of [
      ['erin', 'edit'],
      ['viv', 'view'],
      ['ada', 'admin'],
    ] as const) {
      users[user] = await userKubeconfig(suite.pki, suite.gateways[0]!, user);
      const b = await admin(['create', '-f', '-'], roleBinding(user, role));
      assert.equal(b.code, 0, b.stderr);
    }
  });
  after(async () => {
    await suite?.stop();
  });

  it('before any role is labelled for them, users of edit and view are Forbidden on ServiceMonitors', async () => {
    assert.equal(await canI('erin', 'create'), false);
    assert.equal(await canI('erin', 'list'), false);
    assert.equal(await canI('viv', 'list'), false);

    const create = await as('erin', ['create', '-f', '-'], serviceMonitor('api'));
    assert.notEqual(create.code, 0);
    assert.match(create.stderr, /Error from server \(Forbidden\): error when creating "STDIN"/);
    assert.ok(create.stderr.includes(forbidden('erin', 'create')), create.stderr);

    const list = await raw('viv', 'GET', servicemonitors);
    assert.equal(list.status, 403);
    // Upstream's Status as written (details without a name: omitempty for a list).
    assert.deepEqual(list.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: forbidden('viv', 'list'),
      reason: 'Forbidden',
      details: { group: 'monitoring.coreos.com', kind: 'servicemonitors' },
      code: 403,
    });
    assert.equal((await suite.request(0, 'GET', servicemonitors)).status, 200);
  });

  it('a ClusterRole labelled aggregate-to-edit lets users of edit (and admin) create and list ServiceMonitors, not users of view', async () => {
    const r = await admin(
      ['create', '-f', '-'],
      clusterRole(
        'aggregate-servicemonitors-edit',
        { [aggregateTo('admin')]: 'true', [aggregateTo('edit')]: 'true' },
        ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']
      )
    );
    assert.equal(r.code, 0, r.stderr);
    await until('erin can create servicemonitors', () => canI('erin', 'create'));
    assert.equal(await canI('erin', 'list'), true);
    await until('ada can create servicemonitors', () => canI('ada', 'create'));

    const create = await as('erin', ['create', '-f', '-'], serviceMonitor('api'));
    assert.equal(create.code, 0, create.stderr);
    assert.match(create.stdout, /servicemonitor\.monitoring\.coreos\.com\/api created/);
    const list = await as('erin', ['get', 'servicemonitors', '-n', ns, '-o', 'name']);
    assert.equal(list.code, 0, list.stderr);
    assert.equal(list.stdout, 'servicemonitor.monitoring.coreos.com/api\n');
    const byAdmin = await as('ada', ['delete', 'servicemonitor', 'api', '-n', ns]);
    assert.equal(byAdmin.code, 0, byAdmin.stderr);

    // view aggregates only roles labelled aggregate-to-view: nothing for viv yet.
    assert.equal(await canI('viv', 'list'), false);
    assert.equal(await canI('viv', 'create'), false);
    const denied = await as('viv', ['get', 'servicemonitors', '-n', ns]);
    assert.notEqual(denied.code, 0);
    assert.ok(denied.stderr.includes(forbidden('viv', 'list')), denied.stderr);
    const viewRole = await suite.request(0, 'GET', `/apis/${rbacGroup}/v1/clusterroles/view`);
    assert.ok(!viewRole.text.includes('servicemonitors'), viewRole.text);
  });

  it('a ClusterRole labelled aggregate-to-view gives users of view the read verbs only', async () => {
    const r = await admin(
      ['create', '-f', '-'],
      clusterRole('aggregate-servicemonitors-view', { [aggregateTo('view')]: 'true' }, [
        'get',
        'list',
        'watch',
      ])
    );
    assert.equal(r.code, 0, r.stderr);
    await until('viv can list servicemonitors', () => canI('viv', 'list'));
    assert.equal(await canI('viv', 'watch'), true);
    assert.equal(await canI('viv', 'create'), false);
    assert.equal(await canI('viv', 'delete'), false);

    const mine = await as('erin', ['create', '-f', '-'], serviceMonitor('web'));
    assert.equal(mine.code, 0, mine.stderr);
    const list = await as('viv', ['get', 'servicemonitors', '-n', ns, '-o', 'name']);
    assert.equal(list.code, 0, list.stderr);
    assert.equal(list.stdout, 'servicemonitor.monitoring.coreos.com/web\n');
    const create = await raw('viv', 'POST', servicemonitors, serviceMonitor('db'));
    assert.equal(create.status, 403);
    assert.equal(create.body.message, forbidden('viv', 'create'));
    const del = await as('viv', ['delete', 'servicemonitor', 'web', '-n', ns]);
    assert.notEqual(del.code, 0);
    assert.ok(
      del.stderr.includes(
        `servicemonitors.monitoring.coreos.com "web" is forbidden: User "viv" cannot delete ` +
          `resource "servicemonitors" in API group "monitoring.coreos.com" in the namespace "${ns}"`
      ),
      del.stderr
    );

    // The aggregated roles hold the labelled rules: view the read rule, edit and admin both
    // (view is itself labelled aggregate-to-edit, edit aggregate-to-admin).
    const rules = async (role: string) => {
      const got = await suite.request(0, 'GET', `/apis/${rbacGroup}/v1/clusterroles/${role}`);
      return ((got.body as { rules: { resources?: string[]; verbs: string[] }[] }).rules ?? [])
        .filter((x) => x.resources?.includes('servicemonitors'))
        .map((x) => x.verbs.join(','));
    };
    assert.deepEqual(await rules('view'), ['get,list,watch']);
    await until('edit and admin hold both rules', async () => {
      const [edit, adm] = [await rules('edit'), await rules('admin')];
      return edit.length === 2 && adm.length === 2;
    });
    assert.deepEqual((await rules('edit')).sort(), [
      'get,list,watch',
      'get,list,watch,create,update,patch,delete',
    ]);
  });
});
