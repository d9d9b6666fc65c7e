// Consistent reads' revision, against real etcd and NATS and a storage replica: a write is
// answered only once the publisher has announced it, so the publisher's answer to a revision
// request made after the write covers it; a publisher that cannot vouch answers empty, and
// writes are then answered after --publish-wait instead, never refused.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import type { StorageClient } from '@orch/apimachinery/grpc';
import { revisionRequestSubject } from '@orch/apimachinery/watch';
import { createLogger } from '@orch/component-base/logs';
import { startInBackground } from '@orch/component-base/run';
import { startEtcd, startNats, throwawayPki, waitFor } from '@orch/testing';
import type { EtcdServer, NatsServer, ThrowawayPki } from '@orch/testing';
import { newStorageConfig } from '../config.js';
import { storageOptions } from '../options.js';
import { StorageServer } from '../server.js';
import { replicaFlags, testStorageClient } from '../test-replica.js';

let etcd: EtcdServer;
let natsServer: NatsServer;
let pki: ThrowawayPki;
let nc: NatsConnection;
let storage: StorageServer;
let running: { port: number; stop(): Promise<void> };
let client: StorageClient;
const publishWaitMs = 400;

before(async () => {
  [etcd, natsServer, pki] = await Promise.all([startEtcd(), startNats(), throwawayPki()]);
  nc = await connect({ servers: natsServer.url });
  const options = storageOptions(
    replicaFlags({
      etcdEndpoint: etcd.endpoint,
      natsUrl: natsServer.url,
      pki,
      port: 0,
      identity: 'a',
      more: ['--leader-elect-ttl=2s', `--publish-wait=${publishWaitMs}ms`],
    })
  );
  storage = new StorageServer(await newStorageConfig(options, createLogger('test', 'error')));
  running = await startInBackground(storage);
  client = testStorageClient(pki, `127.0.0.1:${running.port}`);
  await waitFor('the replica leads', async () => storage.elector.holdsLease(), {
    timeoutMs: 10_000,
  });
});

after(async () => {
  client?.close();
  await nc?.close();
  await running?.stop();
  await Promise.all([etcd?.stop(), natsServer?.stop()]);
  await pki?.cleanup();
});

const cm = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns', uid: `uid-${name}` },
});
const key = (name: string) => `/registry/core/configmaps/ns/${name}`;
const rvOf = (object: unknown): number =>
  Number((object as { metadata: { resourceVersion: string } }).metadata.resourceVersion);

/** The publisher's answer to a revision request: a revision, or undefined (empty or none). */
async function askPublisher(): Promise<number | undefined> {
  try {
    const reply = await nc.request(revisionRequestSubject, undefined, { timeout: 1000 });
    const text = Buffer.from(reply.data).toString();
    return text === '' ? undefined : Number(text);
  } catch {
    return undefined;
  }
}

async function metric(name: string, labels: string): Promise<number> {
  const text = await storage.registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return Number(line?.split(' ')[1] ?? 0);
}

test('a write is answered once the publisher announced it: a revision request sent after it is answered with its revision or a later one', async () => {
  const announcedBefore = await metric(
    'orch_storage_publish_wait_seconds_count',
    'outcome="announced"'
  );
  const directBefore = await metric('orch_storage_etcd_txn_total', 'path="direct"');
  for (let i = 0; i < 30; i++) {
    const created = rvOf(await client.create(key(`w${i}`), cm(`w${i}`)));
    const answer = await askPublisher();
    assert.ok(
      answer !== undefined && answer >= created,
      `write at ${created}, publisher answered ${answer}`
    );
    const deleted = (await client.delete(key(`w${i}`), {})).revision;
    const after = await askPublisher();
    assert.ok(
      after !== undefined && after >= deleted,
      `delete at ${deleted}, publisher answered ${after}`
    );
  }
  const announced =
    (await metric('orch_storage_publish_wait_seconds_count', 'outcome="announced"')) -
    announcedBefore;
  assert.equal(announced, 60);
  assert.equal(await metric('orch_storage_publish_wait_seconds_count', 'outcome="timeout"'), 0);
  // Every write's transaction went direct (etcd3's client carried none).
  assert.equal((await metric('orch_storage_etcd_txn_total', 'path="direct"')) - directBefore, 60);
  assert.equal(await metric('orch_storage_etcd_txn_total', 'path="etcd3"'), 0);
});

test('a publisher whose lease keep-alives go unanswered stops answering within 80% of the TTL, before the library reports the lease lost (a successor could be elected only after the TTL)', async () => {
  assert.notEqual(await askPublisher(), undefined);
  process.kill(etcd.pid, 'SIGSTOP');
  const stoppedAt = performance.now();
  try {
    await waitFor('the lease is no longer surely held', async () => !storage.elector.holdsLease(), {
      timeoutMs: 5000,
      intervalMs: 20,
    });
    const after = performance.now() - stoppedAt;
    // Within the TTL of the last answered keep-alive (sent before the stop): no successor could
    // have been elected yet. (It lets go at 80% of it; the rest is slack for a loaded machine.)
    assert.ok(after < 2000, `held ${after.toFixed(0)} ms after etcd stopped answering`);
    assert.equal(storage.elector.leading, true, 'the library has not noticed yet');
    assert.equal(await askPublisher(), undefined);
  } finally {
    process.kill(etcd.pid, 'SIGCONT');
  }
  await waitFor('the lease is held again', async () => storage.elector.holdsLease(), {
    timeoutMs: 15_000,
  });
});

test('without a publisher: revision requests get no revision, and a write is answered after --publish-wait, not refused', async () => {
  await storage.elector.stop();
  assert.equal(storage.elector.holdsLease(), false);
  assert.equal(await askPublisher(), undefined);
  const started = performance.now();
  const created = await client.create(key('alone'), cm('alone'));
  const took = performance.now() - started;
  assert.ok(rvOf(created) > 0);
  assert.ok(took >= publishWaitMs - 5, `answered after ${took.toFixed(0)} ms`);
  assert.equal(await metric('orch_storage_publish_wait_seconds_count', 'outcome="timeout"'), 1);
  assert.equal(rvOf(await client.get(key('alone'), 'MOST_RECENT')), rvOf(created));
});
