// Publisher failover when the leader dies without warning: two storage processes, the leader
// SIGKILLed while changes are being written. The survivor waits out the leader's lease, takes
// over from the last checkpoint and publishes every change: none lost, the first delivery of
// each revision in revision order (a takeover may publish some again, never skip one). Also
// when the leader dies before its first checkpoint interval: the checkpoint it wrote when its
// term began is where the successor resumes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WatchMessage } from '@orch/apimachinery/watch';
import { startEtcd, startNats, throwawayPki, waitFor } from '@orch/testing';
import type { EtcdServer, NatsServer, ThrowawayPki } from '@orch/testing';
import { collectPublished } from './collect-published.js';
import { electedPublisher, startTestReplica } from './test-replica.js';
import type { TestReplica } from './test-replica.js';

let etcd: EtcdServer;
let nats: NatsServer;
let pki: ThrowawayPki;
const replicas: TestReplica[] = [];

before(async () => {
  [etcd, nats, pki] = await Promise.all([startEtcd(), startNats(), throwawayPki()]);
});

after(async () => {
  for (const r of replicas) {
    r.client.close();
    if (r.proc.child.exitCode === null && r.proc.child.signalCode === null)
      r.proc.child.kill('SIGKILL');
  }
  await Promise.all([etcd.stop(), nats.stop(), pki.cleanup()]);
});

async function replica(
  identity: string,
  o: { etcdEndpoint?: string; leaderElectTtl?: string; progressInterval?: string } = {}
): Promise<TestReplica> {
  const r = await startTestReplica({
    etcdEndpoint: o.etcdEndpoint ?? etcd.endpoint,
    natsUrl: nats.url,
    pki,
    identity,
    leaderElectTtl: o.leaderElectTtl ?? '2s',
    progressInterval: o.progressInterval,
  });
  replicas.push(r);
  return r;
}

test('SIGKILL of the publishing replica: the other takes over after the lease and no change is lost', async () => {
  const published = await collectPublished(nats.url);
  const seen = published.seen;

  const a = await replica('a');
  await waitFor('a publishes', async () => electedPublisher(a), { timeoutMs: 10_000 });
  const b = await replica('b');
  const start = await b.client.currentRevision();

  const names: string[] = [];
  const create = async (i: number): Promise<void> => {
    const name = `k${i}`;
    await b.client.create(`/registry/core/configmaps/fo/${name}`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'fo', uid: `u${i}` },
    });
    names.push(name);
  };
  for (let i = 0; i < 10; i++) await create(i);
  a.proc.child.kill('SIGKILL'); // no resignation: b must wait for a's lease to expire
  for (let i = 10; i < 30; i++) await create(i);

  await waitFor('b takes over', async () => electedPublisher(b), { timeoutMs: 15_000 });
  const firsts = (): WatchMessage[] => {
    const byRevision = new Map<number, WatchMessage>();
    for (const m of seen)
      if (m.type !== 'PROGRESS' && m.revision > start && !byRevision.has(m.revision))
        byRevision.set(m.revision, m);
    return [...byRevision.values()];
  };
  await waitFor('every change published', async () => firsts().length === 30, {
    timeoutMs: 20_000,
  });
  const delivered = firsts();
  const revisions = delivered.map((m) => m.revision);
  assert.deepEqual(
    revisions,
    [...revisions].sort((x, y) => x - y),
    'first deliveries in revision order'
  );
  assert.deepEqual(
    delivered.map((m) =>
      m.type === 'PROGRESS' ? '' : (m.object['metadata'] as { name: string }).name
    ),
    names,
    'every change, once, in the order it was written'
  );
  await published.close();
});

test('the publishing replica SIGKILLed before its first progress interval: its successor publishes the changes made since its term began', async () => {
  const fresh = await startEtcd(); // no checkpoint from an earlier term
  const published = await collectPublished(nats.url, 'orch.watch.core.secrets');
  try {
    // a checkpoints only when its term begins; b's campaign waits out a's 5 s lease
    const a = await replica('a1', {
      etcdEndpoint: fresh.endpoint,
      leaderElectTtl: '5s',
      progressInterval: '1h',
    });
    await waitFor('a publishes', async () => electedPublisher(a), { timeoutMs: 10_000 });
    const b = await replica('b1', { etcdEndpoint: fresh.endpoint, leaderElectTtl: '5s' });
    const create = (name: string): Promise<unknown> =>
      b.client.create(`/registry/core/secrets/fo/${name}`, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name, namespace: 'fo', uid: name },
      });
    const changes = published.changes;
    await create('s1');
    await waitFor('a published s1', async () => changes().some((m) => m.name === 's1'), {
      timeoutMs: 10_000,
    });
    a.proc.child.kill('SIGKILL');
    await create('s2');
    await create('s3');
    assert.ok(!electedPublisher(b), 's2 and s3 were written before b took over');

    await waitFor('b published s3', async () => changes().some((m) => m.name === 's3'), {
      timeoutMs: 30_000,
    });
    const firsts = new Map<number, string>();
    for (const m of changes()) if (!firsts.has(m.revision)) firsts.set(m.revision, m.name);
    const revisions = [...firsts.keys()];
    assert.deepEqual(
      revisions,
      [...revisions].sort((x, y) => x - y),
      'in revision order'
    );
    assert.deepEqual([...firsts.values()], ['s1', 's2', 's3'], 'none skipped');
  } finally {
    await published.close();
    for (const r of replicas.splice(0)) {
      r.client.close();
      if (r.proc.child.exitCode === null && r.proc.child.signalCode === null)
        r.proc.child.kill('SIGKILL');
    }
    await fresh.stop();
  }
});
