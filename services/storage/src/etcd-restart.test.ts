// The publisher after an etcd restart (found by the chaos test): etcd going away fails the
// publishing replica's leader task; its election key stays in etcd under the lease, which etcd
// keeps across its restart. Waiting for that lease to expire left every watch without changes
// for the whole lease (5 s by default). The replica revokes its old lease as soon as etcd is back
// and campaigns again, so publishing resumes within the etcd client's reconnect time. The lease
// here is 60 s: a replica waiting it out would not publish within the test's 30 s.
//
// The write made as soon as etcd answers again usually lands before the new term reads where to
// start. The first term here writes no periodic checkpoint (progress every hour), so the new
// term finds only the checkpoint its predecessor wrote when it started; a term that resumed from
// the current revision instead skipped that write for good (a flake whenever etcd was
// killed within the first progress interval).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { isAlreadyExists } from '@orch/apimachinery/errors';
import { startEtcd, startNats, throwawayPki, waitFor } from '@orch/testing';
import type { NatsServer, StandaloneEtcd, ThrowawayPki } from '@orch/testing';
import { collectPublished } from './collect-published.js';
import { electedPublisher, startTestReplica } from './test-replica.js';
import type { TestReplica } from './test-replica.js';

let etcd: StandaloneEtcd;
let restarted: StandaloneEtcd | undefined;
let nats: NatsServer;
let pki: ThrowawayPki;
let replica: TestReplica | undefined;

before(async () => {
  [etcd, nats, pki] = await Promise.all([startEtcd(), startNats(), throwawayPki()]);
});

after(async () => {
  replica?.client.close();
  replica?.proc.child.kill('SIGKILL');
  await restarted?.stop(); // its data dir is the first server's, removed by that one's stop()
  await Promise.all([etcd.stop(), nats.stop(), pki.cleanup()]);
});

test('etcd killed and restarted: the publishing replica revokes its old lease and publishes again, the write made meanwhile included', async () => {
  const r = await startTestReplica({
    etcdEndpoint: etcd.endpoint,
    natsUrl: nats.url,
    pki,
    identity: 'a',
    leaderElectTtl: '60s',
    progressInterval: '1h',
  });
  replica = r;
  const c = r.client;
  await waitFor('elected', async () => electedPublisher(r), { timeoutMs: 10_000 });
  const published = await collectPublished(nats.url);
  const create = (name: string): Promise<unknown> =>
    c.create(`/registry/core/configmaps/er/${name}`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'er', uid: name },
    });
  const changes = published.changes;
  const seenName = (name: string): boolean => changes().some((m) => m.name === name);
  try {
    await create('before');
    await waitFor('published before the restart', async () => seenName('before'), {
      timeoutMs: 10_000,
    });

    await etcd.kill();
    restarted = await startEtcd({
      dataDir: etcd.dataDir,
      clientPort: etcd.clientPort,
      peerPort: etcd.peerPort,
    });
    await waitFor(
      'a write after the restart',
      async () =>
        create('after').then(
          () => true,
          // a create that reached etcd but whose answer was lost counts as written
          (err: unknown) => isAlreadyExists(err)
        ),
      { timeoutMs: 20_000, intervalMs: 250 }
    );
    await waitFor('published after the restart', async () => seenName('after'), {
      timeoutMs: 30_000,
    });
    // A new term may publish 'before' again (it resumes from a checkpoint); the first delivery
    // of each change comes in the order it was written.
    const firsts = new Map<number, string>();
    for (const m of changes()) if (!firsts.has(m.revision)) firsts.set(m.revision, m.name);
    const revisions = [...firsts.keys()];
    assert.deepEqual(
      revisions,
      [...revisions].sort((x, y) => x - y)
    );
    assert.deepEqual([...firsts.values()], ['before', 'after']);
  } finally {
    await published.close();
  }
});
