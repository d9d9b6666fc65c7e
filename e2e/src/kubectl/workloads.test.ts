// The workload and autoscaling kinds with the real kubectl: `kubectl scale`,
// `kubectl create job` and `create cronjob`, `kubectl get all` listing every kind of the `all`
// category, HorizontalPodAutoscalers through `kubectl autoscale` and both versions, and
// `kubectl drain` whose eviction a PodDisruptionBudget refuses.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { kubectlFor } from './run-kubectl.js';

let suite: Suite;
const dir = mkdtempSync(join(tmpdir(), 'orch-workloads-'));
const ns = 'wl-e2e';
const { kubectl, ok } = kubectlFor(() => suite.kubeconfigs[0]!, join(dir, 'cache'));

const manifests = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: ${ns}}
spec:
  serviceName: db
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: "postgres:16"}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: ${ns}}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: "agent:1"}]}
---
apiVersion: v1
kind: ReplicationController
metadata: {name: legacy, namespace: ${ns}}
spec:
  replicas: 1
  template:
    metadata: {labels: {app: legacy}}
    spec: {containers: [{name: legacy, image: "nginx:1.25"}]}
`;

before(async () => {
  suite = await sharedSuite();
  await ok(['create', 'namespace', ns]);
});

after(async () => {
  await suite.stop();
});

test('kubectl scale deployment: through the scale subresource, with --current-replicas as precondition', async () => {
  await ok(['-n', ns, 'create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=2']);
  assert.match(
    await ok(['-n', ns, 'scale', 'deployment', 'web', '--replicas=5']),
    /deployment.apps\/web scaled/
  );
  assert.equal(
    await ok(['-n', ns, 'get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}']),
    '5'
  );
  const wrong = await kubectl([
    '-n',
    ns,
    'scale',
    'deployment',
    'web',
    '--current-replicas=3',
    '--replicas=1',
  ]);
  assert.notEqual(wrong.code, 0);
  assert.match(wrong.stderr, /Expected replicas to be 3, was 5/);
  assert.equal(
    await ok(['-n', ns, 'get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}']),
    '5'
  );
  await ok(['-n', ns, 'apply', '-f', '-'], manifests);
  assert.match(
    await ok(['-n', ns, 'scale', 'statefulset', 'db', '--replicas=4']),
    /statefulset.apps\/db scaled/
  );
  assert.match(
    await ok(['-n', ns, 'scale', 'rc', 'legacy', '--replicas=3']),
    /replicationcontroller\/legacy scaled/
  );
  assert.equal(await ok(['-n', ns, 'get', 'sts', 'db', '-o', 'jsonpath={.spec.replicas}']), '4');
  assert.equal(await ok(['-n', ns, 'get', 'rc', 'legacy', '-o', 'jsonpath={.spec.replicas}']), '3');
});

test('kubectl create job and create cronjob; a bad schedule is refused naming spec.schedule', async () => {
  assert.match(
    await ok(['-n', ns, 'create', 'job', 'hello', '--image=busybox:1.36', '--', 'echo', 'hi']),
    /job.batch\/hello created/
  );
  const job = JSON.parse(await ok(['-n', ns, 'get', 'job', 'hello', '-o', 'json']));
  assert.deepEqual(job.spec.selector, {
    matchLabels: { 'batch.kubernetes.io/controller-uid': job.metadata.uid },
  });
  assert.equal(job.spec.template.metadata.labels['batch.kubernetes.io/job-name'], 'hello');
  assert.equal(job.spec.template.spec.restartPolicy, 'Never');
  assert.match(
    await ok([
      '-n',
      ns,
      'create',
      'cronjob',
      'nightly',
      '--image=busybox:1.36',
      '--schedule=0 2 * * *',
      '--',
      'echo',
      'hi',
    ]),
    /cronjob.batch\/nightly created/
  );
  const cj = JSON.parse(await ok(['-n', ns, 'get', 'cronjob', 'nightly', '-o', 'json']));
  assert.equal(cj.spec.schedule, '0 2 * * *');
  assert.equal(cj.spec.concurrencyPolicy, 'Allow');
  assert.equal(cj.spec.successfulJobsHistoryLimit, 3);
  const bad = await kubectl([
    '-n',
    ns,
    'create',
    'cronjob',
    'bad',
    '--image=busybox:1.36',
    '--schedule=61 * * * *',
  ]);
  assert.notEqual(bad.code, 0);
  assert.match(
    bad.stderr,
    /spec.schedule: Invalid value: "61 \* \* \* \*": end of range \(61\) above maximum \(59\)/
  );
  // The job's selector may not change.
  const patch = await kubectl([
    '-n',
    ns,
    'patch',
    'job',
    'hello',
    '--type=merge',
    '-p',
    '{"spec":{"selector":{"matchLabels":{"x":"y"}}}}',
  ]);
  assert.notEqual(patch.code, 0);
  assert.match(patch.stderr, /spec.selector: Invalid value: .*: field is immutable/);
  const cols = await ok(['-n', ns, 'get', 'cronjob', 'nightly']);
  assert.match(cols, /^NAME\s+SCHEDULE\s+TIMEZONE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE/);
  assert.match(cols, /nightly\s+0 2 \* \* \*\s+<none>\s+False\s+0\s+<none>/);
});

test('kubectl autoscale: an HPA read through autoscaling/v1 and v2', async () => {
  assert.match(
    await ok([
      '-n',
      ns,
      'autoscale',
      'deployment',
      'web',
      '--min=2',
      '--max=6',
      '--cpu-percent=70',
    ]),
    /horizontalpodautoscaler.autoscaling\/web autoscaled/
  );
  const v2 = JSON.parse(
    await ok(['-n', ns, 'get', 'horizontalpodautoscalers.v2.autoscaling', 'web', '-o', 'json'])
  );
  assert.equal(v2.apiVersion, 'autoscaling/v2');
  assert.deepEqual(v2.spec.metrics, [
    {
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
    },
  ]);
  const v1 = JSON.parse(
    await ok(['-n', ns, 'get', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-o', 'json'])
  );
  assert.equal(v1.apiVersion, 'autoscaling/v1');
  assert.equal(v1.spec.targetCPUUtilizationPercentage, 70);
  assert.match(
    await ok(['-n', ns, 'get', 'hpa', 'web']),
    /web\s+Deployment\/web\s+cpu: <unknown>\/70%\s+2\s+6\s+0/
  );
});

test('kubectl get all lists every workload kind of the all category', async () => {
  const out = await ok(['-n', ns, 'get', 'all', '-o', 'name']);
  for (const name of [
    'deployment.apps/web',
    'statefulset.apps/db',
    'daemonset.apps/agent',
    'replicationcontroller/legacy',
    'job.batch/hello',
    'cronjob.batch/nightly',
    'horizontalpodautoscaler.autoscaling/web',
  ])
    assert.ok(out.split('\n').includes(name), `${name} in:\n${out}`);
});

test('kubectl drain: the eviction a PodDisruptionBudget refuses leaves the pod, and drain fails', async () => {
  await ok(['apply', '-f', '-'], 'apiVersion: v1\nkind: Node\nmetadata: {name: worker-1}\n');
  await ok(
    ['-n', ns, 'apply', '-f', '-'],
    `apiVersion: v1
kind: Pod
metadata: {name: guarded, namespace: ${ns}, labels: {app: guarded}}
spec:
  nodeName: worker-1
  containers: [{name: c, image: "nginx:1.25"}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: guarded, namespace: ${ns}}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: guarded}}
`
  );
  // What the kubelet and the disruption controller would write: the pod running and ready, the
  // budget observed with no disruption allowed.
  const pod = JSON.parse(await ok(['-n', ns, 'get', 'pod', 'guarded', '-o', 'json']));
  pod.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
  await ok(['-n', ns, 'replace', '--subresource=status', '-f', '-'], JSON.stringify(pod));
  const pdb = JSON.parse(await ok(['-n', ns, 'get', 'pdb', 'guarded', '-o', 'json']));
  pdb.status = {
    observedGeneration: pdb.metadata.generation,
    disruptionsAllowed: 0,
    currentHealthy: 1,
    desiredHealthy: 1,
    expectedPods: 1,
  };
  await ok(['-n', ns, 'replace', '--subresource=status', '-f', '-'], JSON.stringify(pdb));
  assert.match(await ok(['-n', ns, 'get', 'pdb', 'guarded']), /guarded\s+1\s+N\/A\s+0/);
  const drain = await kubectl([
    'drain',
    'worker-1',
    '--force',
    // kubectl tries the eviction at once, prints the budget's refusal and retries after 5 s:
    // the first refusal is what this checks, so the drain may give up before the retry.
    '--timeout=3s',
    '--pod-selector=app=guarded',
  ]);
  assert.notEqual(drain.code, 0);
  assert.match(drain.stderr, /Cannot evict pod as it would violate the pod's disruption budget/);
  assert.equal(
    await ok(['-n', ns, 'get', 'pod', 'guarded', '-o', 'jsonpath={.metadata.name}']),
    'guarded'
  );
  assert.equal(
    await ok(['get', 'node', 'worker-1', '-o', 'jsonpath={.spec.unschedulable}']),
    'true'
  );
});

test('kubectl explain and server-side apply know the new kinds from their schema', async () => {
  assert.match(await ok(['explain', 'cronjob.spec.schedule']), /The schedule in Cron format/);
  assert.match(
    await ok(['explain', 'hpa.spec.behavior', '--api-version=autoscaling/v2']),
    /HPAScalingRules|scaleUp/
  );
  const sts = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: ssa, namespace: ${ns}}
spec:
  serviceName: ssa
  selector: {matchLabels: {app: ssa}}
  template:
    metadata: {labels: {app: ssa}}
    spec:
      containers:
      - {name: main, image: "app:1", ports: [{containerPort: 80, name: http}]}
`;
  assert.match(
    await ok(['apply', '--server-side', '--field-manager=alice', '-f', '-'], sts),
    /statefulset.apps\/ssa serverside-applied/
  );
  // A second manager adds a container: the containers list merges by name.
  const sidecar = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: ssa, namespace: ${ns}}
spec:
  template:
    spec:
      containers:
      - {name: sidecar, image: "proxy:1"}
`;
  await ok(['apply', '--server-side', '--field-manager=bob', '-f', '-'], sidecar);
  const names = await ok([
    '-n',
    ns,
    'get',
    'sts',
    'ssa',
    '-o',
    'jsonpath={.spec.template.spec.containers[*].name}',
  ]);
  assert.equal(names, 'main sidecar');
});
