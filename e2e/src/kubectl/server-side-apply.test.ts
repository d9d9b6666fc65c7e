// kubectl server-side apply against the gateway: managers sharing, conflicting on and
// forcing a deployment's replicas; two appliers each owning a container of the pod template;
// a manifest edited between applies; migration between client-side and server-side apply;
// server dry run; kubectl diff --server-side; --show-managed-fields.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

let suite: Suite;
const ns = 'kssa';
const dir = mkdtempSync(join(tmpdir(), 'orch-kubectl-ssa-'));

const kubectl = (args: string[], input?: string) =>
  runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input);

let files = 0;
/** The manifest in a file of its own, for `-f`. */
function manifest(text: string): string {
  const file = join(dir, `m${files++}.yaml`);
  writeFileSync(file, text);
  return file;
}

const deployment = (
  name: string,
  opts: { replicas?: number; labels?: string[]; containers?: string[] } = {}
): string => {
  const labels = (opts.labels ?? ['app']).map((l) => `    ${l}: ${name}\n`).join('');
  const containers = (opts.containers ?? ['web'])
    .map((c) => `      - name: ${c}\n        image: ${c === 'web' ? 'nginx' : 'busybox'}\n`)
    .join('');
  return (
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n  namespace: ${ns}\n` +
    `  labels:\n${labels}spec:\n` +
    (opts.replicas === undefined ? '' : `  replicas: ${opts.replicas}\n`) +
    `  selector:\n    matchLabels:\n      app: ${name}\n  template:\n    metadata:\n` +
    `      labels:\n        app: ${name}\n    spec:\n      containers:\n${containers}`
  );
};

/** Only replicas: what a scaler applies. */
const replicasOnly = (name: string, replicas: number): string =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n  namespace: ${ns}\nspec:\n  replicas: ${replicas}\n`;

const getDeployment = async (name: string): Promise<any> =>
  (await suite.request(0, 'GET', `/apis/apps/v1/namespaces/${ns}/deployments/${name}`)).body;
const managers = (obj: any): string[] =>
  (obj.metadata.managedFields ?? []).map((e: any) => `${e.manager}/${e.operation}`).sort();

before(async () => {
  suite = await sharedSuite();
  const r = await kubectl(['create', 'namespace', ns]);
  assert.equal(r.code, 0, r.stderr);
});

after(async () => {
  await suite.stop();
});

test('deployments are served: kubectl api-resources lists them', async () => {
  const r = await kubectl(['api-resources', '--api-group=apps']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
});

test("two managers share a deployment's replicas, conflict on a change, and --force-conflicts moves it", async () => {
  const applied = await kubectl([
    'apply',
    '--server-side',
    '--field-manager=alice',
    '-f',
    manifest(deployment('web', { replicas: 2 })),
  ]);
  assert.equal(applied.code, 0, applied.stderr);
  assert.match(applied.stdout, /deployment\.apps\/web serverside-applied/);
  const shared = await kubectl([
    'apply',
    '--server-side',
    '--field-manager=bob',
    '-f',
    manifest(replicasOnly('web', 2)),
  ]);
  assert.equal(shared.code, 0, shared.stderr);
  assert.deepEqual(managers(await getDeployment('web')), ['alice/Apply', 'bob/Apply']);
  const conflict = await kubectl([
    'apply',
    '--server-side',
    '--field-manager=bob',
    '-f',
    manifest(replicasOnly('web', 3)),
  ]);
  assert.notEqual(conflict.code, 0);
  assert.match(
    conflict.stderr,
    /Apply failed with 1 conflict: conflict with "alice": \.spec\.replicas/
  );
  assert.equal((await getDeployment('web')).spec.replicas, 2);
  const forced = await kubectl([
    'apply',
    '--server-side',
    '--field-manager=bob',
    '--force-conflicts',
    '-f',
    manifest(replicasOnly('web', 3)),
  ]);
  assert.equal(forced.code, 0, forced.stderr);
  const after = await getDeployment('web');
  assert.equal(after.spec.replicas, 3);
  const alice = after.metadata.managedFields.find((e: any) => e.manager === 'alice');
  assert.equal(alice.fieldsV1['f:spec']['f:replicas'], undefined, 'alice no longer owns replicas');
});

test("two appliers each own one container of the pod template's container list", async () => {
  const first = await kubectl([
    'apply',
    '--server-side',
    '--field-manager=app-team',
    '-f',
    manifest(deployment('pair')),
  ]);
  assert.equal(first.code, 0, first.stderr);
  const sidecar =
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: pair\n  namespace: ${ns}\nspec:\n` +
    `  template:\n    spec:\n      containers:\n      - name: proxy\n        image: busybox\n`;
  const second = await kubectl([
    'apply',
    '--server-side',
    '--field-manager=mesh',
    '-f',
    manifest(sidecar),
  ]);
  assert.equal(second.code, 0, second.stderr);
  const again = await kubectl([
    'apply',
    '--server-side',
    '--field-manager=app-team',
    '-f',
    manifest(deployment('pair')),
  ]);
  assert.equal(again.code, 0, again.stderr);
  const d = await getDeployment('pair');
  assert.deepEqual(
    d.spec.template.spec.containers.map((c: any) => c.name),
    ['web', 'proxy']
  );
  const mesh = d.metadata.managedFields.find((e: any) => e.manager === 'mesh');
  assert.ok(mesh.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"proxy"}']);
});

test('kubectl apply --server-side twice with an edited manifest removes the dropped label and container', async () => {
  const first = await kubectl([
    'apply',
    '--server-side',
    '-f',
    manifest(deployment('edit', { labels: ['app', 'tier'], containers: ['web', 'helper'] })),
  ]);
  assert.equal(first.code, 0, first.stderr);
  assert.deepEqual(managers(await getDeployment('edit')), ['kubectl/Apply']);
  const second = await kubectl(['apply', '--server-side', '-f', manifest(deployment('edit'))]);
  assert.equal(second.code, 0, second.stderr);
  const d = await getDeployment('edit');
  assert.deepEqual(d.metadata.labels, { app: 'edit' });
  assert.deepEqual(
    d.spec.template.spec.containers.map((c: any) => c.name),
    ['web']
  );
});

test('migration: kubectl apply then kubectl apply --server-side takes over without conflicts, and back', async () => {
  const csa = await kubectl(['apply', '-f', manifest(deployment('mig', { replicas: 1 }))]);
  assert.equal(csa.code, 0, csa.stderr);
  const before = await getDeployment('mig');
  assert.ok(before.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
  assert.deepEqual(managers(before), ['kubectl-client-side-apply/Update']);
  const ssa = await kubectl([
    'apply',
    '--server-side',
    '-f',
    manifest(deployment('mig', { replicas: 4 })),
  ]);
  assert.equal(ssa.code, 0, ssa.stderr);
  const mid = await getDeployment('mig');
  assert.equal(mid.spec.replicas, 4);
  assert.ok(managers(mid).includes('kubectl/Apply'));
  const last = JSON.parse(
    mid.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']
  );
  assert.equal(last.spec.replicas, 4, 'the annotation follows the server-side apply');
  // Back to client-side apply: the three-way merge sees replicas 4 as last applied.
  const back = await kubectl(['apply', '-f', manifest(deployment('mig', { replicas: 5 }))]);
  assert.equal(back.code, 0, back.stderr);
  assert.equal((await getDeployment('mig')).spec.replicas, 5);
});

test('kubectl apply --server-side --dry-run=server answers what would be stored and stores nothing', async () => {
  const r = await kubectl([
    'apply',
    '--server-side',
    '--dry-run=server',
    '-o',
    'json',
    '--show-managed-fields',
    '-f',
    manifest(deployment('web', { replicas: 9 })),
    '--field-manager=alice',
    '--force-conflicts',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const answered = JSON.parse(r.stdout);
  assert.equal(answered.spec.replicas, 9);
  assert.ok(
    answered.metadata.managedFields.some(
      (e: any) => e.manager === 'alice' && e.fieldsV1['f:spec']['f:replicas']
    )
  );
  assert.equal((await getDeployment('web')).spec.replicas, 3);
});

test('kubectl diff --server-side shows only the change', async () => {
  const r = await kubectl([
    'diff',
    '--server-side',
    '--field-manager=alice',
    '--force-conflicts',
    '-f',
    manifest(deployment('web', { replicas: 6 })),
  ]);
  assert.equal(r.code, 1, `exit 1 means differences: ${r.stderr}`);
  const changed = r.stdout
    .split('\n')
    .filter((l) => /^[-+]/.test(l) && !/^(---|\+\+\+) /.test(l))
    .map((l) => l.replace(/\s+/g, ' ').trim());
  assert.deepEqual(
    changed.filter((l) => !/generation:/.test(l)),
    ['- replicas: 3', '+ replicas: 6'],
    r.stdout
  );
  const same = await kubectl([
    'diff',
    '--server-side',
    '--field-manager=bob',
    '-f',
    manifest(replicasOnly('web', 3)),
  ]);
  assert.equal(same.code, 0, `no differences: ${same.stdout}${same.stderr}`);
});

test('kubectl get -o yaml --show-managed-fields shows the entries; without the flag they are hidden', async () => {
  const shown = await kubectl([
    'get',
    'deployment',
    'web',
    '-n',
    ns,
    '-o',
    'yaml',
    '--show-managed-fields',
  ]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /managedFields:\n/);
  assert.match(shown.stdout, /manager: bob\n\s+operation: Apply/);
  assert.match(shown.stdout, /fieldsType: FieldsV1/);
  assert.match(shown.stdout, /f:replicas: \{\}/);
  const hidden = await kubectl(['get', 'deployment', 'web', '-n', ns, '-o', 'yaml']);
  assert.equal(hidden.code, 0, hidden.stderr);
  assert.doesNotMatch(hidden.stdout, /managedFields/);
});
