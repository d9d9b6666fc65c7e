// A consistent read of a quiet type, against a real suite whose publisher announces progress
// only every 60 s: the gateway asks the publisher for progress (progressRequestSubject) and the
// read is served from the watch cache at once, as upstream's cacher asks etcd for a progress
// notify (storage/cacher/progress, every 100 ms while reads wait) instead of waiting for the
// next one. Without the request the read waits out the 3 s consistent-read timeout and storage
// answers it (counted as a fallback).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'progress-request';
const secrets = `/api/v1/namespaces/${ns}/secrets`;
const configmaps = `/api/v1/namespaces/${ns}/configmaps`;

/** The gateway's count of consistent reads of secrets served from its cache or by storage. */
async function consistentReads(fallback: boolean): Promise<number> {
  const text = (await suite.request(0, 'GET', '/metrics')).text;
  const re = new RegExp(
    `orch_gateway_watch_cache_consistent_read_total\\{resource="secrets",success="true",fallback="${fallback}"\\} (\\d+)`
  );
  return Number(re.exec(text)?.[1] ?? 0);
}

before(async () => {
  suite = await startSuite({ storageArgs: ['--progress-interval=60s'] });
  const ns0 = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } };
  assert.equal((await suite.request(0, 'POST', '/api/v1/namespaces', ns0)).status, 201);
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's0' } };
  assert.equal((await suite.request(0, 'POST', secrets, secret)).status, 201);
  // The first read starts the secrets cache; it serves once synced.
  await waitFor(
    'the gateway serves consistent reads of secrets from its cache',
    async () => {
      await suite.request(0, 'GET', `${secrets}/s0`);
      return (await consistentReads(false)) > 0;
    },
    { timeoutMs: 10_000 }
  );
});

after(async () => {
  await suite.stop();
});

test('consistent get of a quiet type after writes of another: served from the cache after a progress request, not at the next interval', async () => {
  const fromCache = await consistentReads(false);
  const fromStorage = await consistentReads(true);
  for (let i = 0; i < 5; i++) {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` } };
    // The revision moves on; secrets do not change.
    assert.equal((await suite.request(0, 'POST', configmaps, cm)).status, 201);
    const started = Date.now();
    const read = await suite.request(0, 'GET', `${secrets}/s0`);
    const took = Date.now() - started;
    assert.equal(read.status, 200, read.text);
    // The consistent-read wait is 3 s and the publisher's interval 60 s.
    assert.ok(took < 1500, `the read took ${took} ms`);
  }
  assert.equal((await consistentReads(false)) - fromCache, 5, 'served from the cache');
  assert.equal((await consistentReads(true)) - fromStorage, 0, 'none waited in vain');
});
