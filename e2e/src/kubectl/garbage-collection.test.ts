// kubectl and the garbage collector, as a user meets it: `kubectl delete deployment` removes
// the ReplicaSets that name it in their ownerReferences (there is no deployment controller, so
// the test creates them with the reference), `--cascade=foreground` removes them before the
// Deployment, and `--cascade=orphan` leaves them with the reference removed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

let suite: Suite;
const dir = mkdtempSync(join(tmpdir(), 'orch-kubectl-gc-'));
const ns = 'gc-e2e';

const kubectl = (args: string[], input?: string) =>
  runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input);

const podTemplate = (app: string) => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
});

async function createDeployment(name: string): Promise<string> {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns },
    spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: podTemplate(name) },
  };
  const r = await kubectl(['create', '-f', '-', '-o', 'json'], JSON.stringify(deployment));
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { metadata: { uid: string } }).metadata.uid;
}

async function createReplicaSet(name: string, owner: string, uid: string): Promise<void> {
  const rs = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: ns,
      labels: { app: owner },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: owner,
          uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: { replicas: 1, selector: { matchLabels: { app: owner } }, template: podTemplate(owner) },
  };
  const r = await kubectl(['create', '-f', '-'], JSON.stringify(rs));
  assert.equal(r.code, 0, r.stderr);
}

const replicaSets = async (
  app: string
): Promise<{ metadata: { name: string; ownerReferences?: unknown[] } }[]> => {
  const r = await kubectl(['-n', ns, 'get', 'replicasets', '-l', `app=${app}`, '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { items: [] }).items;
};

before(async () => {
  suite = await sharedSuite({ controllers: true });
  const r = await kubectl(['create', 'namespace', ns]);
  assert.equal(r.code, 0, r.stderr);
});

after(async () => {
  await suite?.stop();
});

test('kubectl delete deployment removes its ReplicaSets through their ownerReferences', async () => {
  const uid = await createDeployment('web');
  await createReplicaSet('web-1', 'web', uid);
  await createReplicaSet('web-2', 'web', uid);
  const del = await kubectl(['-n', ns, 'delete', 'deployment', 'web']);
  assert.equal(del.code, 0, del.stderr);
  assert.match(del.stdout, /deployment.apps "web" deleted/);
  await waitFor(
    'the ReplicaSets are collected',
    async () => (await replicaSets('web')).length === 0,
    {
      timeoutMs: 30_000,
    }
  );
});

test('kubectl delete --cascade=foreground: the ReplicaSets are gone when the Deployment is', async () => {
  const uid = await createDeployment('fg');
  await createReplicaSet('fg-1', 'fg', uid);
  const del = await kubectl(['-n', ns, 'delete', 'deployment', 'fg', '--cascade=foreground']);
  assert.equal(del.code, 0, del.stderr);
  // kubectl waited for the Deployment to go, which waited for its blocking dependents.
  assert.deepEqual(await replicaSets('fg'), []);
  const gone = await kubectl(['-n', ns, 'get', 'deployment', 'fg']);
  assert.notEqual(gone.code, 0);
  assert.match(gone.stderr, /NotFound|not found/);
});

test('kubectl delete --cascade=orphan leaves the ReplicaSets, without the reference', async () => {
  const uid = await createDeployment('keep');
  await createReplicaSet('keep-1', 'keep', uid);
  const del = await kubectl(['-n', ns, 'delete', 'deployment', 'keep', '--cascade=orphan']);
  assert.equal(del.code, 0, del.stderr);
  // kubectl waited for the Deployment to go, which waited for the orphaning.
  const left = await replicaSets('keep');
  assert.deepEqual(
    left.map((r) => r.metadata.name),
    ['keep-1']
  );
  assert.equal(left[0]!.metadata.ownerReferences, undefined);
});
