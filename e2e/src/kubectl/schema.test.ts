// kubectl against the schema-driven gateway: protobuf bodies from kubectl's typed helpers,
// server-side field validation, kubectl explain from the OpenAPI documents, and Tables.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

let suite: Suite;
const dir = mkdtempSync(join(tmpdir(), 'orch-kubectl-schema-'));

const kubectl = (args: string[], input?: string) =>
  runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input);

const typoPod = (name: string): string =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  namespace: kschema\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n    imagePullPolcy: Always\n    ports:\n    - containerPort: 80\n`;

before(async () => {
  suite = await sharedSuite();
});

after(async () => {
  await suite.stop();
});

test('kubectl create namespace and create configmap send protobuf bodies and read protobuf answers', async () => {
  const ns = await kubectl(['create', 'namespace', 'kschema', '-v=8']);
  assert.equal(ns.code, 0, ns.stderr);
  assert.match(ns.stderr, /Content-Type: application\/vnd\.kubernetes\.protobuf/);
  assert.match(ns.stderr, /Response Status: 201 Created/);
  assert.match(ns.stdout, /namespace\/kschema created/);
  const cm = await kubectl([
    'create',
    'configmap',
    'settings',
    '-n',
    'kschema',
    '--from-literal=color=blue',
    '--from-literal=size=L',
  ]);
  assert.equal(cm.code, 0, cm.stderr);
  const stored = await suite.request(0, 'GET', '/api/v1/namespaces/kschema/configmaps/settings');
  assert.deepEqual((stored.body as { data: unknown }).data, { color: 'blue', size: 'L' });
});

test('kubectl create --validate=strict fails naming the misspelled field; --validate=warn succeeds with a warning', async () => {
  const file = join(dir, 'typo.yaml');
  writeFileSync(file, typoPod('typo'));
  const strict = await kubectl(['create', '--validate=strict', '-f', file, '-v=6']);
  assert.notEqual(strict.code, 0);
  assert.match(
    strict.stderr,
    /fieldValidation=Strict/,
    'kubectl delegates validation to the server'
  );
  assert.match(
    strict.stderr,
    /strict decoding error: unknown field "spec\.containers\[0\]\.imagePullPolcy"/
  );
  assert.equal((await suite.request(0, 'GET', '/api/v1/namespaces/kschema/pods/typo')).status, 404);

  const warn = await kubectl(['create', '--validate=warn', '-f', file]);
  assert.equal(warn.code, 0, warn.stderr);
  assert.match(warn.stderr, /Warning: unknown field "spec\.containers\[0\]\.imagePullPolcy"/);
  const pod = (await suite.request(0, 'GET', '/api/v1/namespaces/kschema/pods/typo')).body as {
    spec: { containers: Record<string, unknown>[] };
  };
  assert.equal('imagePullPolcy' in (pod.spec.containers[0] ?? {}), false);
});

test('kubectl explain prints the descriptions of proto/', async () => {
  const data = await kubectl(['explain', 'configmap.data']);
  assert.equal(data.code, 0, data.stderr);
  assert.match(data.stdout, /FIELD: +data <map\[string\]string>/);
  assert.match(data.stdout, /Data contains the configuration data/);
  const containers = await kubectl(['explain', 'pod.spec.containers']);
  assert.equal(containers.code, 0, containers.stderr);
  assert.match(containers.stdout, /FIELD: +containers <\[\]Container>/);
  assert.match(containers.stdout, /List of containers belonging to the pod/);
  assert.match(containers.stdout, /image\s+<string>\s+Container image name\./);
  assert.match(containers.stdout, /ports\s+<\[\]ContainerPort>/);
  assert.match(containers.stdout, /name\s+<string> -required-/);
});

test('kubectl get pods -o wide prints the pod columns of the server Table', async () => {
  const wide = await kubectl(['get', 'pods', '-n', 'kschema', '-o', 'wide', '-v=8']);
  assert.equal(wide.code, 0, wide.stderr);
  assert.match(wide.stderr, /Accept: application\/json;as=Table;v=v1;g=meta\.k8s\.io/);
  const [header, row] = wide.stdout.trim().split('\n');
  assert.deepEqual(header?.split(/\s{2,}/), [
    'NAME',
    'READY',
    'STATUS',
    'RESTARTS',
    'AGE',
    'IP',
    'NODE',
    'NOMINATED NODE',
    'READINESS GATES',
  ]);
  assert.match(row ?? '', /^typo\s+0\/1\s+Pending\s+0\s+\S+\s+<none>\s+<none>\s+<none>\s+<none>$/);
  const nss = await kubectl(['get', 'namespaces']);
  assert.match(nss.stdout, /^NAME\s+STATUS\s+AGE\n/);
  assert.match(nss.stdout, /\nkschema\s+Active\s+/);
});

test('a second kubectl apply sends a strategic merge patch that merges lists by their keys', async () => {
  const file = join(dir, 'deploy.yaml');
  const deploy = (image: string, env: string) =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: kschema\nspec:\n  replicas: 2\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: ${image}\n        env:\n${env}      - name: sidecar\n        image: busybox\n`;
  writeFileSync(
    file,
    deploy(
      'nginx:1.26',
      '        - name: A\n          value: "1"\n        - name: B\n          value: "2"\n'
    )
  );
  const first = await kubectl(['apply', '-f', file]);
  assert.equal(first.code, 0, first.stderr);
  // Another writer adds an env var the manifest does not own: the strategic merge keeps it.
  const cur = (await suite.request(0, 'GET', '/apis/apps/v1/namespaces/kschema/deployments/web'))
    .body as any;
  cur.spec.template.spec.containers[0].env.push({ name: 'EXTRA', value: 'x' });
  assert.equal(
    (await suite.request(0, 'PUT', '/apis/apps/v1/namespaces/kschema/deployments/web', cur)).status,
    200
  );
  writeFileSync(file, deploy('nginx:1.27', '        - name: A\n          value: "10"\n'));
  const second = await kubectl(['apply', '-f', file, '-v=6']);
  assert.equal(second.code, 0, second.stderr);
  assert.match(
    second.stderr,
    /PATCH https:\S+deployments\/web\?fieldManager=kubectl-client-side-apply&fieldValidation=Strict 200/
  );
  const after = (await suite.request(0, 'GET', '/apis/apps/v1/namespaces/kschema/deployments/web'))
    .body as any;
  const [web, sidecar] = after.spec.template.spec.containers;
  assert.equal(web.image, 'nginx:1.27');
  assert.deepEqual(web.env, [
    { name: 'A', value: '10' },
    { name: 'EXTRA', value: 'x' },
  ]);
  assert.equal(sidecar.name, 'sidecar');
});
