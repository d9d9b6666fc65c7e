// A storage replica SIGKILLed and back on its port after a long outage (found by the chaos
// test): its clients (gateway, authorizer, admission) reach it again within a few seconds, not
// after a reconnect backoff grown during the outage (grpc-js's default grows to 120 s, so a
// gateway stayed unready up to a minute after storage had returned).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StorageClient } from '@orch/apimachinery/grpc';
import { HealthClient, clientCredentials } from '@orch/component-base/grpc-server';
import { freePort, spawnBackend, startEtcd, startNats, throwawayPki } from '@orch/testing';
import type { EtcdServer, NatsServer, SpawnedBackend, ThrowawayPki } from '@orch/testing';

let etcd: EtcdServer;
let nats: NatsServer;
let pki: ThrowawayPki;
let client: StorageClient | undefined;
const procs: SpawnedBackend[] = [];

const main = join(import.meta.dirname, 'main.js');
/** Long enough for grpc-js's default backoff to grow past the 10 s readiness bound. */
const outageMs = 45_000;
/** Issue 12: ready again within 10 s of the dependency returning. */
const boundMs = 10_000;

before(async () => {
  [etcd, nats, pki] = await Promise.all([startEtcd(), startNats(), throwawayPki()]);
});

after(async () => {
  client?.close();
  for (const p of procs)
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await Promise.all([etcd.stop(), nats.stop(), pki.cleanup()]);
});

function storage(port: number, ready: () => Promise<boolean>): Promise<SpawnedBackend> {
  const files = pki.file('storage');
  return spawnBackend({
    name: 'storage',
    command: process.execPath,
    args: [
      main,
      `--etcd-servers=${etcd.endpoint}`,
      `--nats-url=${nats.url}`,
      `--secure-port=${port}`,
      `--tls-cert-file=${files.certFile}`,
      `--tls-private-key-file=${files.keyFile}`,
      `--client-ca-file=${pki.caFile}`,
    ],
    ready,
    timeoutMs: 30_000,
  }).then((p) => (procs.push(p), p));
}

test(
  'a client reaches a storage replica back after a long outage within the readiness bound',
  { timeout: 150_000 },
  async () => {
    const port = await freePort();
    const gw = pki.file('gateway');
    const credentials = clientCredentials({
      caFile: pki.caFile,
      certFile: gw.certFile,
      keyFile: gw.keyFile,
    });
    client = new StorageClient({ address: `127.0.0.1:${port}`, credentials, timeoutMs: 1000 });
    const c = client;
    const first = await storage(port, () =>
      c.currentRevision().then(
        () => true,
        () => false
      )
    );
    assert.ok((await client.currentRevision()) > 0);

    first.child.kill('SIGKILL');
    // The client keeps asking during the outage, as a gateway's readiness check does.
    const outageEnds = Date.now() + outageMs;
    while (Date.now() < outageEnds) {
      await client.currentRevision().then(
        () => assert.fail('storage answered while killed'),
        () => undefined
      );
      await sleep(500);
    }

    // Back on the same port: ready as a health probe of its own sees it (a channel of its own:
    // grpc-js shares a connection between clients of the same address and options).
    const probe = new HealthClient(`127.0.0.1:${port}`, credentials, {
      'grpc.ssl_target_name_override': 'localhost',
      'grpc.use_local_subchannel_pool': 1,
    });
    try {
      await storage(port, () =>
        probe.check('', 1000).then(
          (s) => s === 'SERVING',
          () => false
        )
      );
    } finally {
      probe.close();
    }
    const back = Date.now();
    let answered = false;
    while (!answered && Date.now() - back < boundMs) {
      answered = await client.currentRevision().then(
        () => true,
        () => false
      );
      if (!answered) await sleep(200);
    }
    console.log(`answered ${Date.now() - back} ms after storage was back`);
    assert.ok(
      answered,
      `the client that lived through the outage did not reach storage within ${boundMs} ms of its return`
    );
  }
);
