// The storage contract against the storage service over real etcd and NATS: the scenario and
// transcript the in-memory storage of the unit tests (@orch/testing/memory-storage) is held
// to, so that the fake cannot drift from the service.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Etcd3 } from 'etcd3';
import { StorageClient } from '@orch/apimachinery/grpc';
import { clientCredentials } from '@orch/component-base/grpc-server';
import { createLogger } from '@orch/component-base/logs';
import { startInBackground } from '@orch/component-base/run';
import { startEtcd, startNats, throwawayPki } from '@orch/testing';
import type { EtcdServer, NatsServer, ThrowawayPki } from '@orch/testing';
import {
  storageContract,
  storageContractMaxObjectBytes,
  storageContractTranscript,
} from '@orch/testing/storage-contract';
import { newStorageConfig } from './config.js';
import { storageOptions } from './options.js';
import { StorageServer } from './server.js';
import { replicaFlags } from './test-replica.js';

let etcd: EtcdServer;
let nats: NatsServer;
let pki: ThrowawayPki;
let server: { port: number; stop(): Promise<void> };
let client: StorageClient;

before(async () => {
  [etcd, nats, pki] = await Promise.all([startEtcd(), startNats(), throwawayPki()]);
  const flags = replicaFlags({
    etcdEndpoint: etcd.endpoint,
    natsUrl: nats.url,
    pki,
    port: 0,
    identity: 'contract',
    more: [`--max-object-size-bytes=${storageContractMaxObjectBytes}`],
  });
  const log = createLogger('storage-contract-test', 'error');
  server = await startInBackground(
    new StorageServer(await newStorageConfig(storageOptions(flags), log))
  );
  const gw = pki.file('gateway');
  client = new StorageClient({
    address: `127.0.0.1:${server.port}`,
    credentials: clientCredentials({
      caFile: pki.caFile,
      certFile: gw.certFile,
      keyFile: gw.keyFile,
    }),
  });
});

after(async () => {
  client.close();
  await server.stop().catch(() => undefined);
  await Promise.all([etcd.stop(), nats.stop(), pki.cleanup()]);
});

test('the storage service answers the storage contract the in-memory storage is held to', async () => {
  const e = new Etcd3({ hosts: etcd.endpoint });
  try {
    const steps = await storageContract(client, async (revision) => {
      await e.kv.compact({ revision });
    });
    assert.deepEqual(steps, storageContractTranscript);
  } finally {
    e.close();
  }
});
