// A replica asked to stop (SIGTERM) while a client holds its Calls stream open ends the
// stream once its calls are answered, and exits: it does not wait out the gRPC server's
// forced shutdown (5 s after a graceful stop begins, for calls still open), which every open
// gateway stream would otherwise cost each restart of storage.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startEtcd, startNats, throwawayPki } from '@orch/testing';
import type { EtcdServer, NatsServer, ThrowawayPki } from '@orch/testing';
import { startTestReplica } from './test-replica.js';
import type { TestReplica } from './test-replica.js';

let etcd: EtcdServer | undefined;
let nats: NatsServer | undefined;
let pki: ThrowawayPki | undefined;
let replica: TestReplica | undefined;

after(async () => {
  replica?.client.close();
  if (replica && replica.proc.child.exitCode === null) replica.proc.child.kill('SIGKILL');
  await Promise.all([etcd?.stop(), nats?.stop(), pki?.cleanup()]);
});

test('SIGTERM with a Calls stream open: the replica ends the stream and exits without the forced shutdown', async () => {
  [etcd, nats, pki] = await Promise.all([startEtcd(), startNats(), throwawayPki()]);
  replica = await startTestReplica({
    etcdEndpoint: etcd.endpoint,
    natsUrl: nats.url,
    pki,
    identity: 'a',
    leaderElectTtl: '10s',
  });
  const child = replica.proc.child;
  assert.ok((await replica.client.currentRevision()) > 0, 'a read on the open stream');
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const started = Date.now();
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  const ms = Date.now() - started;
  assert.ok(ms < 4000, `exited ${ms} ms after SIGTERM; the forced shutdown comes at 5,000`);
  await assert.rejects(replica.client.currentRevision(), 'no replica to answer');
});
