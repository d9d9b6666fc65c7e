// The Kubernetes manifests of deploy/manifests, kept true: `kubectl kustomize` renders the base
// and the highly available overlay, and a running orch accepts every object they hold with a
// server-side dry run (so orch serves every kind they use, and validates them as upstream
// would), storing none of them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from '../kubectl/run-kubectl.js';

const manifests = resolve(dirname(fileURLToPath(import.meta.url)), '../../../deploy/manifests');
const dir = mkdtempSync(join(tmpdir(), 'orch-manifests-'));
let suite: Suite;
const kubectl = (args: string[], input?: string) =>
  runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input);

before(async () => {
  suite = await sharedSuite();
});
after(async () => {
  await suite?.stop();
});

interface Meta {
  kind: string;
  metadata: { name: string; namespace?: string };
}

const kindsOf = (docs: Meta[]) => [...new Set(docs.map((d) => d.kind))].sort();

for (const [overlay, kinds] of [
  ['base', ['ConfigMap', 'Deployment', 'Namespace', 'PodDisruptionBudget', 'Service']],
  ['ha', ['ConfigMap', 'Deployment', 'Namespace', 'PodDisruptionBudget', 'Service', 'StatefulSet']],
] as const) {
  test(`deploy/manifests/${overlay}: rendered by kubectl kustomize, every object accepted by a server-side dry run, none stored`, async () => {
    const rendered = await kubectl(['kustomize', join(manifests, overlay)]);
    assert.equal(rendered.code, 0, rendered.stderr);
    const docs = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Meta);
    assert.deepEqual(kindsOf(docs), [...kinds]);

    const applied = await kubectl(
      ['apply', '--server-side', '--dry-run=server', '--field-manager=manifests-test', '-f', '-'],
      rendered.stdout
    );
    assert.equal(applied.code, 0, applied.stderr);
    const lines = applied.stdout.trim().split('\n');
    assert.equal(lines.length, docs.length, applied.stdout);
    for (const line of lines) assert.match(line, /serverside-applied \(server dry run\)$/);

    // Nothing of it was stored (the namespace orch-system is the suite's own).
    for (const d of docs.filter((x) => x.kind !== 'Namespace')) {
      const got = await kubectl([
        '-n',
        'orch-system',
        'get',
        d.kind.toLowerCase(),
        d.metadata.name,
      ]);
      assert.notEqual(got.code, 0, `${d.kind} ${d.metadata.name} was stored`);
    }
  });
}

test('deploy/manifests/ha: the overlay adds etcd and NATS, two controllers, and spreads every component', async () => {
  const rendered = await kubectl(['kustomize', join(manifests, 'ha')]);
  assert.equal(rendered.code, 0, rendered.stderr);
  const docs = parseAllDocuments(rendered.stdout).map((d) => d.toJS()) as (Meta & {
    spec?: {
      replicas?: number;
      template?: { spec?: { affinity?: { podAntiAffinity?: unknown } } };
    };
  })[];
  const byName = (kind: string, name: string) =>
    docs.find((d) => d.kind === kind && d.metadata.name === name);
  assert.equal(byName('StatefulSet', 'etcd')?.spec?.replicas, 3);
  assert.equal(byName('StatefulSet', 'nats')?.spec?.replicas, 3);
  assert.equal(byName('Deployment', 'controllers')?.spec?.replicas, 2);
  for (const d of docs.filter((x) => x.kind === 'Deployment' || x.kind === 'StatefulSet')) {
    assert.ok(d.spec?.template?.spec?.affinity?.podAntiAffinity, `${d.kind} ${d.metadata.name}`);
  }
  for (const name of [
    'etcd',
    'nats',
    'storage',
    'authorizer',
    'admission',
    'certificates',
    'gateway',
  ]) {
    assert.ok(byName('PodDisruptionBudget', name), `PodDisruptionBudget ${name}`);
  }
});
