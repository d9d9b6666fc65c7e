// `kubectl drain` against a PodDisruptionBudget whose status the disruption controller keeps
// (the shared suite with controllers; the test writes no budget status): drain evicts the
// node's pods while the budget allows it, and fails with upstream's message once it does not.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { kubectlFor } from './run-kubectl.js';

let suite: Suite;
const dir = mkdtempSync(join(tmpdir(), 'orch-drain-'));
const ns = 'drain-e2e';
const nodes = ['drain-e2e-1', 'drain-e2e-2'];
const { kubectl, ok } = kubectlFor(() => suite.kubeconfigs[0]!, join(dir, 'cache'));
const pod = (name: string, node: string) => `---
apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: ${ns}, labels: {app: web}}
spec:
  nodeName: ${node}
  containers: [{name: c, image: "nginx:1.25"}]
`;

before(async () => {
  suite = await sharedSuite({ controllers: true });
  await ok(['create', 'namespace', ns]);
});

after(async () => {
  await kubectl(['delete', 'namespace', ns, '--wait=false']);
  await kubectl(['delete', 'node', ...nodes]);
  await suite.stop();
});

test('kubectl drain: evicts the node’s pods while the budget the controller computes allows it, then fails on the budget', async () => {
  for (const n of nodes)
    await ok(['apply', '-f', '-'], `apiVersion: v1\nkind: Node\nmetadata: {name: ${n}}\n`);
  await ok(
    ['apply', '-f', '-'],
    pod('web-a', nodes[0]!) + pod('web-b', nodes[0]!) + pod('web-c', nodes[1]!)
  );
  // What the kubelet would write: each pod running and ready.
  for (const name of ['web-a', 'web-b', 'web-c']) {
    const p = JSON.parse(await ok(['-n', ns, 'get', 'pod', name, '-o', 'json']));
    p.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
    await ok(['-n', ns, 'replace', '--subresource=status', '-f', '-'], JSON.stringify(p));
  }
  await ok([
    '-n',
    ns,
    'create',
    'poddisruptionbudget',
    'web',
    '--selector=app=web',
    '--min-available=1',
  ]);
  await waitFor(
    'the disruption controller to allow 2 disruptions',
    async () => /^web\s+1\s+N\/A\s+2\s/m.test(await ok(['-n', ns, 'get', 'pdb', 'web'])),
    { timeoutMs: 30_000, intervalMs: 200 }
  );

  // --force: these pods have no controller (the budget counts them all the same).
  const drained = await kubectl([
    'drain',
    nodes[0]!,
    '--force',
    '--timeout=60s',
    '--pod-selector=app=web',
  ]);
  assert.equal(drained.code, 0, drained.stderr);
  assert.match(drained.stdout, /pod\/web-a evicted/);
  assert.match(drained.stdout, /pod\/web-b evicted/);
  assert.match(drained.stdout, new RegExp(`node/${nodes[0]!} drained`));
  assert.equal(
    await ok(['-n', ns, 'get', 'pods', '-o', 'jsonpath={.items[*].metadata.name}']),
    'web-c'
  );

  await waitFor(
    'the budget to allow no disruption with one pod left',
    async () => /^web\s+1\s+N\/A\s+0\s/m.test(await ok(['-n', ns, 'get', 'pdb', 'web'])),
    { timeoutMs: 30_000, intervalMs: 200 }
  );
  const refused = await kubectl([
    'drain',
    nodes[1]!,
    '--force',
    // kubectl tries the eviction at once, prints the budget's refusal and retries after 5 s:
    // the first refusal is what this checks, so the drain may give up before the retry.
    '--timeout=3s',
    '--pod-selector=app=web',
  ]);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /Cannot evict pod as it would violate the pod's disruption budget/);
  assert.equal(
    await ok(['-n', ns, 'get', 'pod', 'web-c', '-o', 'jsonpath={.metadata.name}']),
    'web-c'
  );
});
