// A watch of custom resources across gateways (custom objects as the spec has them "watched
// by @kubernetes/client-node"), one suite with two gateways and the controllers on, cert-manager's
// published Certificate CRD applied: a client-node Watch on gateway 0 sees, in order and each
// once, the ADDED, MODIFIED (a write of /status) and DELETED events of writes made through
// gateway 1, with the resourceVersions gateway 1 answered. The two gateways share storage and
// the NATS stream only, as upstream's apiservers behind one etcd share nothing but etcd's watch.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { startSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from '../kubectl/run-kubectl.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'crds');
const dir = mkdtempSync(join(tmpdir(), 'orch-cr-watch-'));
const ns = 'pki';
const certificates = `/apis/cert-manager.io/v1/namespaces/${ns}/certificates`;

interface Certificate {
  metadata: { name: string; resourceVersion: string };
  spec: { secretName: string };
  status?: { notAfter?: string };
}

describe('a client-node watch of custom resources across gateways', () => {
  let suite: Suite;
  const kubectl = (gateway: number, args: string[], input?: string) =>
    runKubectl(suite.kubeconfigs[gateway]!, join(dir, `cache-${gateway}`), args, input);

  before(async () => {
    suite = await startSuite({ gateways: 2, controllers: true });
    const created = await kubectl(
      1,
      ['create', '-f', '-'],
      `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`
    );
    assert.equal(created.code, 0, created.stderr);
    const crd = await kubectl(1, [
      'apply',
      '-f',
      join(fixtures, 'certificates.cert-manager.io.yaml'),
    ]);
    assert.equal(crd.code, 0, crd.stderr);
    for (const gateway of [0, 1]) {
      await waitFor(
        `certificates served by gateway ${gateway}`,
        async () => (await suite.request(gateway, 'GET', certificates)).status === 200,
        { timeoutMs: 20_000, intervalMs: 50 }
      );
    }
  });
  after(async () => {
    await suite?.stop();
  });

  it('gateway 0 streams ADDED, MODIFIED (/status) and DELETED of writes through gateway 1, in order', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(suite.kubeconfigs[0]!);
    assert.equal(kc.getCurrentCluster()?.server, suite.gateways[0]);
    const events: { type: string; obj: Certificate }[] = [];
    let ended: unknown = null;
    const watch = new k8s.Watch(kc);
    const req = await watch.watch(
      certificates,
      {},
      (type: string, obj: Certificate) => events.push({ type, obj }),
      (err: unknown) => {
        ended = err ?? 'ended';
      }
    );
    try {
      const create = await kubectl(
        1,
        ['create', '-f', '-', '-o', 'json'],
        JSON.stringify({
          apiVersion: 'cert-manager.io/v1',
          kind: 'Certificate',
          metadata: { name: 'web', namespace: ns },
          spec: { secretName: 'web-tls', issuerRef: { name: 'ca' } },
        })
      );
      assert.equal(create.code, 0, create.stderr);
      const added = JSON.parse(create.stdout) as Certificate;

      const status = await suite.request(
        1,
        'PATCH',
        `${certificates}/web/status`,
        { status: { notAfter: '2030-01-01T00:00:00Z' } },
        { 'Content-Type': 'application/merge-patch+json' }
      );
      assert.equal(status.status, 200, status.text);
      const modified = status.body as Certificate;
      assert.equal(modified.status?.notAfter, '2030-01-01T00:00:00Z');

      const del = await suite.request(1, 'DELETE', `${certificates}/web`);
      assert.equal(del.status, 200, del.text);

      await waitFor('the DELETED event of web on gateway 0', async () => events.length >= 3, {
        timeoutMs: 10_000,
        intervalMs: 20,
        abortReason: () => (ended === null ? undefined : `the watch ended: ${String(ended)}`),
      });
      assert.deepEqual(
        events.map((e) => `${e.type} ${e.obj.metadata.name}`),
        ['ADDED web', 'MODIFIED web', 'DELETED web']
      );
      const [a, m, d] = events.map((e) => e.obj);
      assert.equal(a!.metadata.resourceVersion, added.metadata.resourceVersion);
      assert.equal(a!.status, undefined);
      assert.equal(m!.metadata.resourceVersion, modified.metadata.resourceVersion);
      assert.equal(m!.status?.notAfter, '2030-01-01T00:00:00Z');
      assert.equal(m!.spec.secretName, 'web-tls');
      // The DELETED event carries the last state at the revision of the delete (upstream's
      // etcd3 watcher), after the MODIFIED one.
      assert.equal(d!.status?.notAfter, '2030-01-01T00:00:00Z');
      assert.ok(
        BigInt(d!.metadata.resourceVersion) > BigInt(m!.metadata.resourceVersion),
        `${d!.metadata.resourceVersion} after ${m!.metadata.resourceVersion}`
      );
      // Nothing more arrives: no event repeated.
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(events.length, 3, JSON.stringify(events.map((e) => e.type)));
      assert.equal(ended, null);
    } finally {
      req.abort();
    }
  });
});
