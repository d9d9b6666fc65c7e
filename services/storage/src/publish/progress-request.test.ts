// The publisher's answer to progress requests, against real etcd and NATS with a 60 s interval: a
// message on progressRequestSubject makes the leader write its checkpoint at once, so progress
// reaches every subject (as etcd answers upstream's RequestProgress with a progress notify), and
// a burst of requests is a write or two, not one write each.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Etcd3 } from 'etcd3';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { progressRequestSubject } from '@orch/apimachinery/watch';
import { createLogger } from '@orch/component-base/logs';
import { startInBackground } from '@orch/component-base/run';
import { startEtcd, startNats, throwawayPki, waitFor } from '@orch/testing';
import type { EtcdServer, NatsServer, ThrowawayPki } from '@orch/testing';
import { collectPublished } from '../collect-published.js';
import { newStorageConfig } from '../config.js';
import { storageOptions } from '../options.js';
import { StorageServer } from '../server.js';
import { replicaFlags } from '../test-replica.js';

let etcd: EtcdServer;
let nats: NatsServer;
let pki: ThrowawayPki;
let nc: NatsConnection;
let stop: () => Promise<void>;

before(async () => {
  [etcd, nats, pki] = await Promise.all([startEtcd(), startNats(), throwawayPki()]);
  const options = storageOptions(
    replicaFlags({
      etcdEndpoint: etcd.endpoint,
      natsUrl: nats.url,
      pki,
      port: 0,
      identity: 'a',
      more: ['--progress-interval=60s'],
    })
  );
  const storage = new StorageServer(
    await newStorageConfig(options, createLogger('storage-test', 'error'))
  );
  ({ stop } = await startInBackground(storage));
  await waitFor('the replica leads', async () => storage.elector.leading, { timeoutMs: 10_000 });
  nc = await connect({ servers: nats.url });
});

after(async () => {
  await nc.close();
  await stop();
  await Promise.all([etcd.stop(), nats.stop(), pki.cleanup()]);
});

test('a progress request makes the leader publish progress at once; a burst of 20 is not 20 checkpoint writes', async () => {
  const published = await collectPublished(nats.url);
  const progress = (): number[] => [
    ...new Set(published.seen.filter((m) => m.type === 'PROGRESS').map((m) => m.revision)),
  ];
  // The publisher subscribes once it leads: ask until it answers (well within the 60 s interval).
  const started = Date.now();
  await waitFor(
    'progress after a request',
    async () => {
      nc.publish(progressRequestSubject);
      await nc.flush();
      await new Promise((r) => setTimeout(r, 50));
      return progress().length > 0;
    },
    { timeoutMs: 5000 }
  );
  assert.ok(Date.now() - started < 5000);
  await new Promise((r) => setTimeout(r, 300));
  const before = progress().length;
  for (let i = 0; i < 20; i++) nc.publish(progressRequestSubject);
  await nc.flush();
  await waitFor('progress after the burst', async () => progress().length > before, {
    timeoutMs: 5000,
  });
  await new Promise((r) => setTimeout(r, 500));
  const writes = progress().length - before;
  // One write in flight and one more for the requests that came meanwhile (a few if the burst
  // reached the publisher in several reads).
  assert.ok(writes >= 1 && writes < 20, `${writes} checkpoint writes for 20 requests`);
  await published.close();
});

test('a change too large for NATS is marked on its subject at once, its chain pointing past it, so no proof of the whole stream can skip it', async () => {
  // The whole stream passing a revision proves a type complete up to it only if every change up
  // to it reached the type's subject: one the publisher cannot send leaves a marker there (a
  // PROGRESS at its revision whose prevRevision is that revision), which a subscriber reads as a
  // gap and repairs from history. Without it the gap would show only at the next message or
  // progress of the subject (here the 60 s interval).
  const published = await collectPublished(nats.url);
  const e = new Etcd3({ hosts: etcd.endpoint });
  try {
    const object = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'too-large', namespace: 'pr' },
      data: { v: 'x'.repeat(1024 * 1024) },
    };
    const put = await e.put('/registry/core/configmaps/pr/too-large').value(JSON.stringify(object));
    const revision = Number(put.header.revision);
    await waitFor(
      'the marker of the change not sent',
      async () => published.seen.some((m) => m.revision === revision),
      { timeoutMs: 5000 }
    );
    const marker = published.seen.find((m) => m.revision === revision)!;
    assert.equal(marker.type, 'PROGRESS');
    assert.equal(marker.prevRevision, revision);
    assert.deepEqual(published.changes(), [], 'the change itself is not sent');
  } finally {
    e.close();
    await published.close();
  }
});
