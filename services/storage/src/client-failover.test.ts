// A client given several storage replicas (`--storage-servers=a,b`) keeps working when the one
// it uses dies or stops answering: the gateway, the authorizer and the admission service stay
// ready through the loss of a replica instead of waiting for its return (found by the chaos test
// and by pausing a container).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEtcd, startNats, throwawayPki } from '@orch/testing';
import type { EtcdServer, NatsServer, ThrowawayPki } from '@orch/testing';
import { StorageClient } from '@orch/apimachinery/grpc';
import { channelOptions, storageProto } from '@orch/proto';
import { clientCredentials } from '@orch/component-base/grpc-server';
import { startTestReplica, testStorageClient } from './test-replica.js';
import type { TestReplica } from './test-replica.js';

let etcd: EtcdServer;
let nats: NatsServer;
let pki: ThrowawayPki;
const replicas: TestReplica[] = [];
const replicaOptions = () => ({
  etcdEndpoint: etcd.endpoint,
  natsUrl: nats.url,
  pki,
  leaderElectTtl: '2s',
});

before(async () => {
  [etcd, nats, pki] = await Promise.all([startEtcd(), startNats(), throwawayPki()]);
  for (const identity of ['a', 'b'])
    replicas.push(
      await startTestReplica({
        etcdEndpoint: etcd.endpoint,
        natsUrl: nats.url,
        pki,
        identity,
        leaderElectTtl: '2s',
      })
    );
});

after(async () => {
  for (const r of replicas) {
    r.client.close();
    if (r.proc.child.exitCode === null && r.proc.child.signalCode === null)
      r.proc.child.kill('SIGKILL');
  }
  await Promise.all([etcd.stop(), nats.stop(), pki.cleanup()]);
});

test('the replica in use killed: at most the call in flight fails, the next ones go to the other replica', async () => {
  const [a, b] = replicas as [TestReplica, TestReplica];
  const client = testStorageClient(pki, `${a.address},${b.address}`);
  const key = (i: number): string => `/registry/core/configmaps/cf/c${i}`;
  const object = (i: number): Record<string, unknown> => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `c${i}`, namespace: 'cf', uid: `u${i}` },
  });
  try {
    await client.create(key(0), object(0));
    a.proc.child.kill('SIGKILL');
    await new Promise((resolve) => a.proc.child.once('exit', resolve));

    const failed: number[] = [];
    for (let i = 1; i <= 10; i++)
      await client.create(key(i), object(i)).catch(() => failed.push(i));
    assert.ok(failed.length <= 1, `creates that failed after the kill: ${failed.join(', ')}`);
    assert.ok(!failed.includes(10), 'the client moved to the replica that is up');
    // Every acknowledged create is there, read through the surviving replica alone.
    const list = await b.client.list({
      prefix: '/registry/core/configmaps/cf/',
      consistency: 'MOST_RECENT',
    });
    assert.equal(list.items.length, 11 - failed.length);
  } finally {
    client.close();
  }
});

test('the replica in use stopped (SIGSTOP, connection open): the call in flight times out, the next ones go to the other replica', async () => {
  const [c, d] = [
    await startTestReplica({
      etcdEndpoint: etcd.endpoint,
      natsUrl: nats.url,
      pki,
      identity: 'c',
      leaderElectTtl: '2s',
    }),
    await startTestReplica({
      etcdEndpoint: etcd.endpoint,
      natsUrl: nats.url,
      pki,
      identity: 'd',
      leaderElectTtl: '2s',
    }),
  ];
  replicas.push(c, d);
  const gw = pki.file('gateway');
  const client = new StorageClient({
    address: `${c.address},${d.address}`,
    credentials: clientCredentials({
      caFile: pki.caFile,
      certFile: gw.certFile,
      keyFile: gw.keyFile,
    }),
    // Long enough for the replica that answers on a loaded machine; the stopped one never does.
    timeoutMs: 3000,
  });
  const key = (i: number): string => `/registry/core/configmaps/cs/c${i}`;
  const object = (i: number): Record<string, unknown> => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `c${i}`, namespace: 'cs', uid: `s${i}` },
  });
  try {
    await client.create(key(0), object(0));
    c.proc.child.kill('SIGSTOP');
    const failed: number[] = [];
    for (let i = 1; i <= 5; i++) await client.create(key(i), object(i)).catch(() => failed.push(i));
    assert.ok(failed.length <= 1, `creates that failed after the stop: ${failed.join(', ')}`);
    assert.ok(!failed.includes(5), 'the client moved to the replica that answers');
  } finally {
    c.proc.child.kill('SIGCONT');
    client.close();
  }
});

test('one name for two replicas (as compose gives them), the one in use stopped: keepalive gives it up within 15 s and the calls go to the other', async () => {
  const [e, f] = [
    await startTestReplica({ ...replicaOptions(), identity: 'e' }),
    await startTestReplica({ ...replicaOptions(), identity: 'f' }),
  ];
  replicas.push(e, f);
  // One channel, one target with both addresses (what a DNS name with two records resolves to):
  // grpc-js's pick_first uses the first that connects; StorageClient is not involved.
  const gw = pki.file('gateway');
  const channel = new storageProto.orch.storage.v1.Storage(
    `ipv4:${e.address},${f.address}`,
    clientCredentials({ caFile: pki.caFile, certFile: gw.certFile, keyFile: gw.keyFile }),
    { ...channelOptions, 'grpc.ssl_target_name_override': 'storage' }
  );
  const revision = (): Promise<void> =>
    new Promise((resolve, reject) =>
      channel.CurrentRevision({}, { deadline: Date.now() + 2000 }, (err) =>
        err ? reject(err) : resolve()
      )
    );
  try {
    await revision();
    e.proc.child.kill('SIGSTOP');
    const stoppedAt = Date.now();
    let failures = 0;
    for (;;) {
      try {
        await revision();
        break;
      } catch {
        failures++;
      }
      // keepalive time + timeout, and the 2 s deadline of the call under way when it fires
      assert.ok(Date.now() - stoppedAt < 20_000, 'the calls still fail 20 s after the stop');
    }
    assert.ok(failures > 0, 'the stopped replica was the one in use');
    await revision(); // and the channel stays on the replica that answers
  } finally {
    e.proc.child.kill('SIGCONT');
    channel.close();
  }
});

test('StorageClient over one target for two replicas, the one in use stopped: the call in flight times out and the next ones go to the other', async () => {
  const [g, h] = [
    await startTestReplica({ ...replicaOptions(), identity: 'g' }),
    await startTestReplica({ ...replicaOptions(), identity: 'h' }),
  ];
  replicas.push(g, h);
  const gw = pki.file('gateway');
  const client = new StorageClient({
    address: `ipv4:${g.address},${h.address}`,
    credentials: clientCredentials({
      caFile: pki.caFile,
      certFile: gw.certFile,
      keyFile: gw.keyFile,
    }),
    timeoutMs: 3000,
  });
  try {
    await client.currentRevision();
    g.proc.child.kill('SIGSTOP');
    const failed: number[] = [];
    for (let i = 1; i <= 4; i++) await client.currentRevision().catch(() => failed.push(i));
    assert.ok(failed.length <= 1, `calls that failed after the stop: ${failed.join(', ')}`);
    assert.ok(!failed.includes(4), 'the client reconnected to the replica that answers');
  } finally {
    g.proc.child.kill('SIGCONT');
    client.close();
  }
});
