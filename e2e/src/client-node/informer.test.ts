// @kubernetes/client-node: a list+watch informer on one gateway sees every change made
// through a second gateway.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;

before(async () => {
  suite = await sharedSuite();
  await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'informed' },
  });
});

after(async () => {
  await suite.stop();
});

test('client-node informer on gateway A sees every change made through gateway B', async () => {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(suite.kubeconfigs[0]!);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const informer = k8s.makeInformer(kc, '/api/v1/namespaces/informed/configmaps', () =>
    core.listNamespacedConfigMap({ namespace: 'informed' })
  );
  const seen: string[] = [];
  informer.on('add', (o: k8s.V1ConfigMap) => seen.push(`add ${o.metadata?.name} ${o.data?.['v']}`));
  informer.on('update', (o: k8s.V1ConfigMap) =>
    seen.push(`update ${o.metadata?.name} ${o.data?.['v']}`)
  );
  informer.on('delete', (o: k8s.V1ConfigMap) => seen.push(`delete ${o.metadata?.name}`));
  await informer.start();
  try {
    const base = '/api/v1/namespaces/informed/configmaps';
    const expected: string[] = [];
    for (let i = 0; i < 5; i++) {
      await suite.request(1, 'POST', base, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}` },
        data: { v: '1' },
      });
      expected.push(`add cm-${i} 1`);
    }
    for (let i = 0; i < 5; i++) {
      await suite.request(
        1,
        'PATCH',
        `${base}/cm-${i}`,
        { data: { v: '2' } },
        { 'Content-Type': 'application/merge-patch+json' }
      );
      expected.push(`update cm-${i} 2`);
    }
    await suite.request(1, 'DELETE', `${base}/cm-0`);
    expected.push('delete cm-0');
    for (let t = 0; t < 200 && seen.length < expected.length; t++)
      await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(seen, expected);
    assert.deepEqual(
      informer
        .list('informed')
        .map((o) => o.metadata?.name)
        .sort(),
      ['cm-1', 'cm-2', 'cm-3', 'cm-4']
    );
  } finally {
    await informer.stop();
  }
});
