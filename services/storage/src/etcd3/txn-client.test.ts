// The writes' Txn client against a real etcd: the store's creates, updates and deletes go
// direct and answer as through etcd3 (revisions, a failed compare, the previous object of a
// delete); an error etcd answers is the error etcd3 throws for it; with etcd gone a write goes
// through etcd3 (its retries, its unavailable error), and direct again once etcd is back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Etcd3 } from 'etcd3';
import { isAlreadyExists, isConflict } from '@orch/apimachinery/errors';
import { startEtcd, waitFor } from '@orch/testing';
import type { StandaloneEtcd } from '@orch/testing';
import { EtcdStore } from './store.js';
import { TxnClient } from './txn-client.js';

let etcd: StandaloneEtcd;
let restarted: StandaloneEtcd | undefined;
let client: Etcd3;
let txns: TxnClient;
let store: EtcdStore;
/** The calls of the shared client, by the way they went. */
const counts = { direct: 0, etcd3Calls: 0 };

/** A Txn client that counts its calls into `into` (as storage's metric does). */
const countingClient = (
  etcd3: Etcd3,
  endpoint: string,
  timeoutMs: number,
  into: { direct: number; etcd3Calls: number }
): TxnClient =>
  new TxnClient(etcd3, {
    endpoints: [endpoint],
    timeoutMs,
    downMs: 200,
    onCall: (path) => (path === 'direct' ? into.direct++ : into.etcd3Calls++),
  });

before(async () => {
  etcd = await startEtcd();
  client = new Etcd3({ hosts: etcd.endpoint });
  txns = countingClient(client, etcd.endpoint, 2000, counts);
  store = new EtcdStore(client, { txn: (req) => txns.txn(req) });
});

after(async () => {
  txns.close();
  client.close();
  await restarted?.stop();
  await etcd.stop();
});

const cm = (name: string, data: Record<string, string> = {}): Uint8Array =>
  Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }));
const parsed = (b: Buffer): { metadata: { resourceVersion: string }; data: object } =>
  JSON.parse(b.toString('utf8')) as { metadata: { resourceVersion: string }; data: object };

test('creates, updates and deletes go direct and answer as etcd3 does', async () => {
  const before = { ...counts };
  const key = '/registry/core/configmaps/t/a';
  const created = parsed(await store.create(key, cm('a', { v: '1' })));
  const rev = Number(created.metadata.resourceVersion);
  assert.equal((await client.get(key).exec()).header.revision, String(rev));
  await assert.rejects(store.create(key, cm('a')), (err) => isAlreadyExists(err));
  const updated = parsed(await store.update(key, cm('a', { v: '2' }), { revision: rev }));
  assert.ok(Number(updated.metadata.resourceVersion) > rev);
  assert.deepEqual(updated.data, { v: '2' });
  await assert.rejects(store.update(key, cm('a', { v: '3' }), { revision: rev }), (err) =>
    isConflict(err)
  );
  const deleted = await store.delete(key, {});
  assert.deepEqual(parsed(deleted.object).data, { v: '2' });
  assert.equal(deleted.object.length > 0, true);
  assert.equal((await client.get(key).exec()).kvs.length, 0);
  // Two creates, an update, a delete; the stale update is refused before its Txn.
  assert.ok(counts.direct - before.direct >= 4, JSON.stringify(counts));
  assert.equal(counts.etcd3Calls, before.etcd3Calls);
});

test('an error etcd answers is the error etcd3 throws for the same request', async () => {
  // Two puts of one key in one Txn: etcd refuses it (InvalidArgument), whichever client sends it.
  const key = Buffer.from('/registry/core/configmaps/t/twice');
  const req = {
    compare: [],
    success: [
      { request_put: { key, value: Buffer.from('1') } },
      { request_put: { key, value: Buffer.from('2') } },
    ],
    failure: [],
  } as Parameters<Etcd3['kv']['txn']>[0];
  const refused = (p: Promise<unknown>): Promise<Error | undefined> =>
    p.then(
      () => undefined,
      (err: Error) => err
    );
  const throughBefore = counts.etcd3Calls;
  const direct = await refused(txns.txn(req));
  const viaEtcd3 = await refused(client.kv.txn(req));
  assert.ok(direct && viaEtcd3, 'both refused');
  assert.equal(counts.etcd3Calls, throughBefore, 'answered direct');
  assert.equal(direct.constructor, viaEtcd3.constructor);
  assert.equal(direct.message, viaEtcd3.message);
  assert.match(direct.message, /duplicate key/);
});

test('with etcd gone a write goes through etcd3, and direct again once etcd is back', async () => {
  const key = '/registry/core/configmaps/t/b';
  await store.create(key, cm('b'));
  await etcd.kill();
  const throughBefore = counts.etcd3Calls;
  await assert.rejects(store.create('/registry/core/configmaps/t/c', cm('c')));
  assert.ok(counts.etcd3Calls > throughBefore, JSON.stringify(counts));
  restarted = await startEtcd({
    dataDir: etcd.dataDir,
    clientPort: etcd.clientPort,
    peerPort: etcd.peerPort,
  });
  const directBefore = counts.direct;
  await waitFor(
    'a write direct again',
    async () => {
      await store
        .create(`/registry/core/configmaps/t/d-${Date.now()}`, cm('d'))
        .catch(() => undefined);
      return counts.direct > directBefore;
    },
    { timeoutMs: 15_000 }
  );
  // Read by a client of its own: etcd3's breaker for this one may still be open.
  const fresh = new Etcd3({ hosts: etcd.endpoint });
  try {
    assert.equal((await fresh.get(key).exec()).kvs.length, 1, 'what was written stays');
  } finally {
    fresh.close();
  }
});

test('a call past its deadline (etcd paused) goes through etcd3, and its session is dropped', async (t) => {
  const live = restarted ?? etcd;
  // Clients of their own: the previous test left etcd3's circuit breaker of the shared one open.
  const etcd3 = new Etcd3({ hosts: live.endpoint });
  const counts = { direct: 0, etcd3Calls: 0 };
  const txns = countingClient(etcd3, live.endpoint, 1000, counts);
  const store = new EtcdStore(etcd3, { txn: (req) => txns.txn(req) });
  t.after(() => {
    txns.close();
    etcd3.close();
  });
  await store.create('/registry/core/configmaps/t/before-pause', cm('x'));
  const before = { ...counts };
  process.kill(live.pid, 'SIGSTOP');
  let resumed = false;
  const resume = setTimeout(() => {
    resumed = true;
    process.kill(live.pid, 'SIGCONT');
  }, 4000);
  try {
    // Direct: no answer within the 1 s deadline; then etcd3's call, answered once etcd resumes.
    // The direct request was sent: etcd may apply it on resuming, before etcd3's call, which
    // then finds the key taken (a write retried after its deadline, as etcd3's own retries do).
    await store
      .create('/registry/core/configmaps/t/paused', cm('p'))
      .catch((err: unknown) => assert.ok(isAlreadyExists(err), String(err)));
    assert.ok(resumed, 'answered only after etcd resumed');
    assert.equal((await etcd3.get('/registry/core/configmaps/t/paused').exec()).kvs.length, 1);
    assert.equal(counts.etcd3Calls, before.etcd3Calls + 1, JSON.stringify(counts));
  } finally {
    clearTimeout(resume);
    if (!resumed) process.kill(live.pid, 'SIGCONT');
  }
  await waitFor(
    'direct again',
    async () => {
      const direct = counts.direct;
      await store.create(`/registry/core/configmaps/t/after-${Date.now()}`, cm('a'));
      return counts.direct > direct;
    },
    { timeoutMs: 10_000 }
  );
});
