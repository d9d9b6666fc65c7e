// Publisher failover when the leader dies without warning: two storage processes, the leader
// SIGKILLed while changes are being written. The survivor waits out the leader's lease, takes
// over from the last checkpoint and publishes every change: none lost, the first delivery of
// each revision in revision order (a takeover may publish some again, never skip one).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { StorageClient } from '@orch/apimachinery/grpc';
import type { WatchMessage } from '@orch/apimachinery/watch';
import { clientCredentials } from '@orch/component-base/grpc-server';
import { freePort, spawnBackend, startEtcd, startNats, throwawayPki, waitFor } from '@orch/testing';
import type { EtcdServer, NatsServer, SpawnedBackend, ThrowawayPki } from '@orch/testing';
import { collectPublished } from './collect-published.js';

let etcd: EtcdServer;
let nats: NatsServer;
let pki: ThrowawayPki;
const procs: SpawnedBackend[] = [];
const clients: StorageClient[] = [];

const main = join(import.meta.dirname, 'main.js');

before(async () => {
  [etcd, nats, pki] = await Promise.all([startEtcd(), startNats(), throwawayPki()]);
});

after(async () => {
  for (const c of clients) c.close();
  for (const p of procs)
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await Promise.all([etcd.stop(), nats.stop(), pki.cleanup()]);
});

async function replica(identity: string): Promise<{ proc: SpawnedBackend; client: StorageClient }> {
  const port = await freePort();
  const files = pki.file('storage');
  const gw = pki.file('gateway');
  const client = new StorageClient({
    address: `127.0.0.1:${port}`,
    credentials: clientCredentials({
      caFile: pki.caFile,
      certFile: gw.certFile,
      keyFile: gw.keyFile,
    }),
    timeoutMs: 5000,
  });
  clients.push(client);
  const proc = await spawnBackend({
    name: `storage-${identity}`,
    command: process.execPath,
    args: [
      main,
      `--etcd-servers=${etcd.endpoint}`,
      `--nats-url=${nats.url}`,
      `--secure-port=${port}`,
      `--tls-cert-file=${files.certFile}`,
      `--tls-private-key-file=${files.keyFile}`,
      `--client-ca-file=${pki.caFile}`,
      '--progress-interval=200ms',
      '--leader-elect-ttl=2s',
      `--identity=${identity}`,
    ],
    ready: async () =>
      client.currentRevision().then(
        () => true,
        () => false
      ),
    timeoutMs: 20_000,
  });
  procs.push(proc);
  return { proc, client };
}

const elected = (p: SpawnedBackend): boolean => p.output.toString().includes('"elected publisher"');

test('SIGKILL of the publishing replica: the other takes over after the lease and no change is lost', async () => {
  const published = await collectPublished(nats.url);
  const seen = published.seen;

  const a = await replica('a');
  await waitFor('a publishes', async () => elected(a.proc), { timeoutMs: 10_000 });
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

  await waitFor('b takes over', async () => elected(b.proc), { timeoutMs: 15_000 });
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
