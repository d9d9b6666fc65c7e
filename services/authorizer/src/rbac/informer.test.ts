// The shared informer against a real suite (storage gRPC + NATS): it lists, follows changes,
// and repairs a lost NATS message from storage's history, so no change is missed. On the shared
// suite, in a namespace of its own: the message it loses is its own object's, in its own
// subscription.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { NatsConnection } from 'nats';
import { connect } from 'nats';
import { StorageClient } from '@orch/apimachinery/grpc';
import { SharedInformer } from '@orch/apimachinery/informer';
import { clientCredentials } from '@orch/component-base/grpc-server';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
let storage: StorageClient;
let nats: NatsConnection;
const ns = `informer-${Date.now().toString(36)}`;
const configmaps = `/api/v1/namespaces/${ns}/configmaps`;

before(async () => {
  suite = await sharedSuite();
  const made = await suite.request(0, 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
  assert.equal(made.status, 201, made.text);
  const g = suite.pki.file('gateway');
  storage = new StorageClient({
    address: `127.0.0.1:${suite.storagePort}`,
    credentials: clientCredentials({ caFile: suite.pki.caFile, ...g }),
  });
  nats = await connect({ servers: suite.nats.url });
});

after(async () => {
  await nats.close();
  storage.close();
  await suite.request(0, 'DELETE', `/api/v1/namespaces/${ns}`);
  await suite.stop();
});

it('lists, follows, and repairs a lost message from history', async () => {
  const cm = (name: string) => ({ metadata: { name }, data: { n: name } });
  assert.equal((await suite.request(0, 'POST', configmaps, cm('before'))).status, 201);
  let dropped = 0;
  const repairs: number[] = [];
  const seen: string[] = [];
  const informer = new SharedInformer({
    storage,
    nats,
    prefix: '/registry/core/configmaps/',
    // Lose the change of `lost` as if NATS had dropped it.
    dropMessage: (m) =>
      m.type !== 'PROGRESS' &&
      (m.object['metadata'] as { name: string; namespace: string }).name === 'lost' &&
      (m.object['metadata'] as { namespace: string }).namespace === ns &&
      ++dropped > 0,
    onRepair: (n) => repairs.push(n),
  });
  // Only this test's configmaps: the suite's controllers and the other files write others.
  informer.addEventHandler({
    onAdd: (o) => {
      const meta = o['metadata'] as { name: string; namespace: string };
      if (meta.namespace === ns) seen.push(meta.name);
    },
  });
  await informer.start();
  try {
    assert.ok(informer.get(`${ns}/before`));
    // A write of another prefix first, so that the first message of the watch skips a revision:
    // the check of that message replays its own change, which is no repair.
    assert.equal(
      (
        await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/secrets`, {
          metadata: { name: 'elsewhere' },
        })
      ).status,
      201
    );
    // Once a change made now has arrived, the watch's opening replay is behind us, so `lost`
    // can only come through NATS (and be dropped there).
    await suite.request(0, 'POST', configmaps, cm('marker'));
    await waitFor('the watch runs', async () => !!informer.get(`${ns}/marker`), {
      timeoutMs: 5000,
    });
    for (const name of ['lost', 'after']) {
      assert.equal((await suite.request(0, 'POST', configmaps, cm(name))).status, 201);
    }
    await waitFor(
      'the informer has every configmap, and the message of `lost` was dropped',
      async () => !!informer.get(`${ns}/after`) && !!informer.get(`${ns}/lost`) && dropped === 1,
      { timeoutMs: 5000 }
    );
    assert.equal(dropped, 1);
    // A repair brought `lost`: it replays up to storage's current revision. The first message of
    // the watch is checked against storage's history too when it is not right after the list,
    // which the other files' writes on the shared suite can make a repair of its own: so at
    // least one, not exactly one.
    assert.ok(repairs.length >= 1, `repairs: ${JSON.stringify(repairs)}`);
    assert.ok(repairs.some((n) => n >= 1));
    assert.deepEqual(seen, ['before', 'marker', 'lost', 'after']);
    assert.equal((await suite.request(0, 'DELETE', `${configmaps}/before`)).status, 200);
    await waitFor('the deletion arrives', async () => !informer.get(`${ns}/before`), {
      timeoutMs: 5000,
    });
  } finally {
    informer.stop();
  }
});
