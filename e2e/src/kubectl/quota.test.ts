// ResourceQuota and LimitRange with kubectl: `kubectl create quota`, `kubectl get quota` with
// upstream's columns, `kubectl describe quota` once the controller filled the status, a pod
// refused with upstream's message, and LimitRange defaults visible in `kubectl get pod -o yaml`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

let suite: Suite;
const dir = mkdtempSync(join(tmpdir(), 'orch-quota-'));
const ns = 'quota-e2e';
const kubectl = (args: string[], input?: string) =>
  runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input);

const podYaml = (name: string) =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  namespace: ${ns}\nspec:\n  containers:\n  - name: app\n    image: nginx\n`;

before(async () => {
  suite = await sharedSuite({ controllers: true });
  const r = await kubectl(['create', 'namespace', ns]);
  assert.equal(r.code, 0, r.stderr);
  // The root CA publisher's kube-root-ca.crt, which count/configmaps counts as upstream's does.
  await waitFor(
    'kube-root-ca.crt in the namespace',
    async () => (await kubectl(['-n', ns, 'get', 'configmap', 'kube-root-ca.crt'])).code === 0,
    { timeoutMs: 30_000, intervalMs: 200 }
  );
});

after(async () => {
  await suite?.stop();
});

test('kubectl create quota, get quota and describe quota', async () => {
  const created = await kubectl([
    '-n',
    ns,
    'create',
    'quota',
    'q',
    '--hard=pods=1,count/configmaps=5',
  ]);
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /^resourcequota\/q created/);
  let described = '';
  await waitFor(
    'the controller to fill the quota status',
    async () => {
      const d = await kubectl(['-n', ns, 'describe', 'quota', 'q']);
      described = d.stdout;
      return d.code === 0 && /pods\s+0\s+1/.test(d.stdout);
    },
    { timeoutMs: 30_000, intervalMs: 200 }
  );
  assert.match(described, /^Name:\s+q$/m);
  assert.match(described, /^Namespace:\s+quota-e2e$/m);
  assert.match(described, /^Resource\s+Used\s+Hard$/m);
  assert.match(described, /^count\/configmaps\s+1\s+5$/m);
  assert.match(described, /^pods\s+0\s+1$/m);
  const get = await kubectl(['-n', ns, 'get', 'quota']);
  assert.equal(get.code, 0, get.stderr);
  assert.match(get.stdout, /^NAME\s+AGE\s+REQUEST\s+LIMIT$/m);
  assert.match(get.stdout, /^q\s+\S+\s+count\/configmaps: 1\/5, pods: 0\/1\s*$/m);
});

test('a pod over the quota is refused with upstream’s message', async () => {
  const first = await kubectl(['create', '-f', '-'], podYaml('one'));
  assert.equal(first.code, 0, first.stderr);
  const second = await kubectl(['create', '-f', '-'], podYaml('two'));
  assert.notEqual(second.code, 0);
  assert.match(
    second.stderr,
    /Error from server \(Forbidden\): error when creating "STDIN": pods "two" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1/
  );
});

test('LimitRange defaults are visible in kubectl get pod -o yaml', async () => {
  const lr = await kubectl(
    ['create', '-f', '-'],
    `apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: defaults\n  namespace: ${ns}\nspec:\n  limits:\n  - type: Container\n    default:\n      cpu: 500m\n      memory: 256Mi\n    defaultRequest:\n      cpu: 100m\n      memory: 128Mi\n`
  );
  assert.equal(lr.code, 0, lr.stderr);
  const limits = await kubectl(['-n', ns, 'get', 'limits']);
  assert.match(limits.stdout, /^NAME\s+CREATED AT$/m);
  assert.match(limits.stdout, /^defaults\s+\d{4}-\d\d-\d\dT/m);
  // Room for one more pod.
  const raised = await kubectl([
    '-n',
    ns,
    'patch',
    'quota',
    'q',
    '--type=merge',
    '-p',
    '{"spec":{"hard":{"pods":"2"}}}',
  ]);
  assert.equal(raised.code, 0, raised.stderr);
  await waitFor(
    'the raised quota in status',
    async () => /pods\s+1\s+2/.test((await kubectl(['-n', ns, 'describe', 'quota', 'q'])).stdout),
    { timeoutMs: 30_000, intervalMs: 200 }
  );
  const created = await kubectl(['create', '-f', '-'], podYaml('defaulted'));
  assert.equal(created.code, 0, created.stderr);
  const got = await kubectl(['-n', ns, 'get', 'pod', 'defaulted', '-o', 'yaml']);
  const pod = parseYaml(got.stdout) as {
    metadata: { annotations: Record<string, string> };
    spec: { containers: { resources: unknown }[] };
  };
  assert.deepEqual(pod.spec.containers[0]!.resources, {
    limits: { cpu: '500m', memory: '256Mi' },
    requests: { cpu: '100m', memory: '128Mi' },
  });
  assert.equal(
    pod.metadata.annotations['kubernetes.io/limit-ranger'],
    'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app'
  );
});

test('kubectl explain reads the kinds from the OpenAPI documents', async () => {
  const quota = await kubectl(['explain', 'resourcequota.spec']);
  assert.equal(quota.code, 0, quota.stderr);
  assert.match(quota.stdout, /^\s+hard\s+<map\[string\]/m);
  assert.match(quota.stdout, /^\s+scopeSelector\s+<ScopeSelector>/m);
  const limits = await kubectl(['explain', 'limitrange.spec.limits']);
  assert.equal(limits.code, 0, limits.stderr);
  assert.match(limits.stdout, /^\s+maxLimitRequestRatio\s+<map\[string\]/m);
  assert.match(limits.stdout, /^\s+type\s+<string> -required-/m);
});
