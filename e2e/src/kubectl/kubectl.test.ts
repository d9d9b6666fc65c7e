// kubectl against a suite started as `make run` starts it: the everyday flow of the
// foundation issue, end to end.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

let suite: Suite;
const dir = mkdtempSync(join(tmpdir(), 'orch-kubectl-'));

const kubectl = (args: string[], input?: string) =>
  runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input);

const manifest = (name: string, data: Record<string, string>) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: e2e\n  labels:\n    app: demo\ndata:\n${Object.entries(
    data
  )
    .map(([k, v]) => `  ${k}: "${v}"`)
    .join('\n')}\n`;

before(async () => {
  suite = await sharedSuite({ controllers: true });
});

after(async () => {
  await suite.stop();
});

test('kubectl: create a namespace, apply a configmap, read it as JSON and YAML', async () => {
  const ns = await kubectl(
    ['create', '-f', '-'],
    'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: e2e\n'
  );
  assert.equal(ns.code, 0, ns.stderr);
  const file = join(dir, 'cm.yaml');
  writeFileSync(file, manifest('settings', { color: 'blue' }));
  const applied = await kubectl(['apply', '-f', file]);
  assert.equal(applied.code, 0, applied.stderr);
  assert.match(applied.stdout, /configmap\/settings created/);
  const json = await kubectl(['-n', 'e2e', 'get', 'configmap', 'settings', '-o', 'json']);
  const obj = JSON.parse(json.stdout) as {
    data: Record<string, string>;
    metadata: { uid: string; resourceVersion: string };
  };
  assert.deepEqual(obj.data, { color: 'blue' });
  assert.ok(obj.metadata.uid && obj.metadata.resourceVersion);
  const yaml = await kubectl(['-n', 'e2e', 'get', 'configmap', 'settings', '-o', 'yaml']);
  assert.deepEqual((parseYaml(yaml.stdout) as { data: unknown }).data, { color: 'blue' });
});

test('kubectl get -w sees a change made by another client', async () => {
  const watch = spawn('kubectl', [
    `--kubeconfig=${suite.kubeconfigs[0]}`,
    `--cache-dir=${join(dir, 'cache')}`,
    '-n',
    'e2e',
    'get',
    'configmap',
    'settings',
    '-w',
    '-o',
    'jsonpath={.data.color}{"\\n"}',
  ]);
  let out = '';
  watch.stdout.on('data', (c: Buffer) => (out += c.toString()));
  try {
    for (let i = 0; i < 100 && !out.includes('blue'); i++)
      await new Promise((r) => setTimeout(r, 100));
    const patched = await kubectl([
      '-n',
      'e2e',
      'patch',
      'configmap',
      'settings',
      '--type=merge',
      '-p',
      '{"data":{"color":"green"}}',
    ]);
    assert.equal(patched.code, 0, patched.stderr);
    for (let i = 0; i < 100 && !out.includes('green'); i++)
      await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(out.trim().split('\n'), ['blue', 'green']);
  } finally {
    watch.kill();
  }
});

test('kubectl get --chunk-size=2 over 5 objects pages through all of them', async () => {
  for (let i = 0; i < 3; i++) {
    const r = await kubectl(['create', '-f', '-'], manifest(`chunk-${i}`, { i: String(i) }));
    assert.equal(r.code, 0, r.stderr);
  }
  // The fifth: the root CA publisher's ConfigMap, in every namespace as upstream's.
  await waitFor(
    'kube-root-ca.crt in e2e',
    async () => (await kubectl(['-n', 'e2e', 'get', 'configmap', 'kube-root-ca.crt'])).code === 0,
    { timeoutMs: 30_000, intervalMs: 200 }
  );
  const r = await kubectl([
    '-n',
    'e2e',
    'get',
    'configmaps',
    '--chunk-size=2',
    '-o',
    'name',
    '-v=6',
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), [
    'configmap/chunk-0',
    'configmap/chunk-1',
    'configmap/chunk-2',
    'configmap/kube-root-ca.crt',
    'configmap/settings',
  ]);
  assert.equal(
    (r.stderr.match(/GET https:\S+configmaps\?\S*limit=2/g) ?? []).length,
    3,
    'three pages of at most two'
  );
});

test('kubectl delete removes a configmap, and deleting the namespace removes its content', async () => {
  const del = await kubectl(['-n', 'e2e', 'delete', 'configmap', 'settings']);
  assert.equal(del.code, 0, del.stderr);
  const gone = await kubectl(['-n', 'e2e', 'get', 'configmap', 'settings']);
  assert.notEqual(gone.code, 0);
  assert.match(gone.stderr, /NotFound|not found/);
  const nsDel = await kubectl(['delete', 'namespace', 'e2e', '--timeout=30s']);
  assert.equal(nsDel.code, 0, nsDel.stderr);
  const after = await kubectl(['get', 'namespace', 'e2e']);
  assert.match(after.stderr, /not found/);
  const leftovers = await suite.request(0, 'GET', '/api/v1/namespaces/e2e/configmaps');
  assert.deepEqual((leftovers.body as { items: unknown[] }).items, []);
});
