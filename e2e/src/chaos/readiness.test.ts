// A gateway that says it is ready serves writes (found by the chaos test): after the admission
// service was SIGKILLed and started again, the gateway's /readyz asked the admission service's
// health over a connection of its own, which answered at once, while the Admit calls' connection
// still waited out its reconnect backoff: the gateway was "ready" and every write got 503.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
// Namespaces: PodSecurity (on by default, in the admission service) acts on them, so each write
// needs the Admit call. A ConfigMap would not show it: no plugin can act on one in a cluster
// without webhooks, policies or quotas, and the gateway makes no call for it.
const path = '/api/v1/namespaces';
const namespace = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

before(async () => {
  suite = await startSuite();
});

after(async () => {
  await suite.stop();
});

test('after the admission service comes back, a ready gateway admits writes', async () => {
  const first = await suite.request(0, 'POST', path, namespace('before'));
  assert.equal(first.status, 201, first.text);

  await suite.kill('admission');
  // Writes fail closed meanwhile; each failed call grows the Admit connection's backoff.
  for (let i = 0; i < 10; i++) {
    const r = await suite.request(0, 'POST', path, namespace(`down-${i}`));
    assert.equal(r.status, 503, `admission down: ${r.text}`);
    await sleep(300);
  }
  await suite.restart('admission', 30_000);
  // Readiness is bounded (within 10 s of the dependency returning), then it holds.
  await suite.waitReady('gateway', 10_000);
  const after = await suite.request(0, 'POST', path, namespace('after'));
  assert.equal(after.status, 201, `the gateway said it was ready: ${after.text}`);
});
