// The built-in pod admission plugins end to end with kubectl: PodSecurity refusing a
// pod in a namespace labelled enforce=restricted with upstream's message, a warn-mode namespace
// giving kubectl's "Warning:" line, a namespace label change warning about existing pods, and
// ServiceAccount (on by default, but off in a suite without the controllers, so enabled here;
// the pods name accounts the test creates) setting the default account and mounting the API
// access volume. The admission
// service reads a PodSecurity configuration exempting one namespace from
// --admission-control-config-file; TaintNodesByCondition and DefaultTolerationSeconds (on by
// default) are seen on a node and a pod.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

let suite: Suite;
const dir = mkdtempSync(join(tmpdir(), 'orch-pod-security-'));
const admin = (args: string[], input?: string) =>
  runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input);

const namespaceYaml = (name: string, labels: Record<string, string>) =>
  `apiVersion: v1
kind: Namespace
metadata:
  name: ${name}
  labels:
${Object.entries(labels)
  .map(([k, v]) => `    ${k}: ${v}`)
  .join('\n')}
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: default
  namespace: ${name}
`;

const podYaml = (name: string, spec = '') => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
${spec}  containers:
  - name: c
    image: registry.example/app:1
`;

const admissionConfig = join(dir, 'admission.yaml');
writeFileSync(
  admissionConfig,
  `apiVersion: apiserver.config.orch.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  configuration:
    apiVersion: pod-security.admission.config.orch.io/v1
    kind: PodSecurityConfiguration
    exemptions:
      namespaces: [exempt-ns]
`
);

before(async () => {
  suite = await startSuite({
    gatewayArgs: ['--enable-admission-plugins=ServiceAccount'],
    admissionArgs: [`--admission-control-config-file=${admissionConfig}`],
  });
  const created = await admin(
    ['create', '-f', '-'],
    namespaceYaml('restricted-ns', { 'pod-security.orch.io/enforce': 'restricted' }) +
      '---\n' +
      namespaceYaml('exempt-ns', { 'pod-security.orch.io/enforce': 'restricted' }) +
      '---\n' +
      namespaceYaml('warned-ns', { 'pod-security.orch.io/warn': 'baseline' }) +
      '---\n' +
      namespaceYaml('plain-ns', { e2e: 'pod-security' })
  );
  assert.equal(created.code, 0, created.stderr);
});

after(async () => {
  await suite?.stop();
});

test('kubectl: PodSecurity enforce=restricted refuses a pod with upstream’s message', async () => {
  const r = await admin(['-n', 'restricted-ns', 'create', '-f', '-'], podYaml('web'));
  assert.notEqual(r.code, 0);
  assert.match(
    r.stderr,
    /Error from server \(Forbidden\): error when creating "STDIN": pods "web" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false \(container "c" must set securityContext.allowPrivilegeEscalation=false\), unrestricted capabilities \(container "c" must set securityContext.capabilities.drop=\["ALL"\]\), runAsNonRoot != true \(pod or container "c" must set securityContext.runAsNonRoot=true\), seccompProfile \(pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"\)/
  );
  const got = await admin(['-n', 'restricted-ns', 'get', 'pod', 'web']);
  assert.notEqual(got.code, 0, 'nothing was stored');
});

test('kubectl: a restricted-compliant pod is admitted in the restricted namespace', async () => {
  const r = await admin(
    ['-n', 'restricted-ns', 'create', '-f', '-'],
    `apiVersion: v1
kind: Pod
metadata:
  name: compliant
spec:
  securityContext:
    runAsNonRoot: true
    seccompProfile:
      type: RuntimeDefault
  containers:
  - name: c
    image: registry.example/app:1
    securityContext:
      allowPrivilegeEscalation: false
      capabilities:
        drop: ["ALL"]
`
  );
  assert.equal(r.code, 0, r.stderr);
});

test('kubectl: PodSecurity warn=baseline admits the pod and kubectl prints the warning', async () => {
  const r = await admin(
    ['-n', 'warned-ns', 'create', '-f', '-'],
    podYaml('host', '  hostNetwork: true\n')
  );
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /Warning: would violate PodSecurity "baseline:latest": host namespaces \(hostNetwork=true\)/
  );
});

test('kubectl: labelling a namespace enforce=baseline warns about its existing pods', async () => {
  const created = await admin(
    ['-n', 'plain-ns', 'create', '-f', '-'],
    podYaml('privileged-one', '  hostPID: true\n')
  );
  assert.equal(created.code, 0, created.stderr);
  const r = await admin([
    'label',
    '--overwrite',
    'namespace',
    'plain-ns',
    'pod-security.orch.io/enforce=baseline',
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /Warning: existing pods in namespace "plain-ns" violate the new PodSecurity enforce level "baseline:latest"/
  );
  assert.match(r.stderr, /Warning: privileged-one: host namespaces/);
});

test('kubectl: ServiceAccount sets the default account and mounts kube-api-access-<random>', async () => {
  const created = await admin(['-n', 'warned-ns', 'create', '-f', '-'], podYaml('mounted'));
  assert.equal(created.code, 0, created.stderr);
  const r = await admin(['-n', 'warned-ns', 'get', 'pod', 'mounted', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const pod = JSON.parse(r.stdout) as {
    spec: {
      serviceAccountName: string;
      volumes: { name: string; projected?: { sources: Record<string, unknown>[] } }[];
      containers: { volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[] }[];
    };
  };
  assert.equal(pod.spec.serviceAccountName, 'default');
  const volume = pod.spec.volumes.find((v) => v.name.startsWith('kube-api-access-'));
  assert.ok(volume, JSON.stringify(pod.spec.volumes));
  assert.match(volume.name, /^kube-api-access-[a-z0-9]{5}$/);
  assert.deepEqual(
    volume.projected?.sources.map((s) => Object.keys(s)[0]),
    ['serviceAccountToken', 'configMap', 'downwardAPI']
  );
  assert.deepEqual(pod.spec.containers[0]!.volumeMounts, [
    {
      name: volume.name,
      mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
      readOnly: true,
    },
  ]);
});

test('kubectl: ServiceAccount refuses a pod naming an account that does not exist', async () => {
  const r = await admin(
    ['-n', 'warned-ns', 'create', '-f', '-'],
    podYaml('orphan', '  serviceAccountName: builder\n')
  );
  assert.notEqual(r.code, 0);
  assert.match(
    r.stderr,
    /pods "orphan" is forbidden: error looking up service account warned-ns\/builder: serviceaccount "builder" not found/
  );
});

test('kubectl: a namespace exempt in the PodSecurity configuration admits a pod its label would refuse', async () => {
  const r = await admin(['-n', 'exempt-ns', 'create', '-f', '-'], podYaml('web'));
  assert.equal(r.code, 0, r.stderr);
});

test('kubectl: DefaultTolerationSeconds gives a new pod the not-ready and unreachable tolerations', async () => {
  const r = await admin([
    '-n',
    'exempt-ns',
    'get',
    'pod',
    'web',
    '-o',
    'jsonpath={.spec.tolerations}',
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [
    {
      key: 'node.orch.io/not-ready',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    },
    {
      key: 'node.orch.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    },
  ]);
});

test('kubectl: TaintNodesByCondition gives a new node the not-ready NoSchedule taint', async () => {
  const created = await admin(
    ['create', '-f', '-'],
    'apiVersion: v1\nkind: Node\nmetadata:\n  name: e2e-node-1\n'
  );
  assert.equal(created.code, 0, created.stderr);
  const r = await admin(['get', 'node', 'e2e-node-1', '-o', 'jsonpath={.spec.taints}']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [{ key: 'node.orch.io/not-ready', effect: 'NoSchedule' }]);
});
