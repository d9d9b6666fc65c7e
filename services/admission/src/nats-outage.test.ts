// Writes go on while NATS is away (found by the chaos test): the admission service's listers
// start their informers on first use (the ValidatingAdmissionPolicy plugin's policies, first
// asked for by a DELETE); an informer first started while NATS was down failed its start on
// NATS's flush, and so did every admission call after it: every delete of the cluster answered
// 500 until NATS came back, though no write needs NATS.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const path = '/api/v1/namespaces/default/configmaps';
const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });

before(async () => {
  suite = await startSuite();
});

after(async () => {
  await suite.stop();
});

test('writes during a NATS outage are admitted, informers first started then included', async () => {
  for (const name of ['a', 'b']) {
    const created = await suite.request(0, 'POST', path, configMap(name));
    assert.equal(created.status, 201, created.text);
  }
  await suite.kill('nats');
  const deleted = await suite.request(0, 'DELETE', `${path}/a`);
  assert.equal(deleted.status, 200, `delete during the outage: ${deleted.text}`);
  const created = await suite.request(0, 'POST', path, configMap('c'));
  assert.equal(created.status, 201, `create during the outage: ${created.text}`);

  await suite.restart('nats', 20_000);
  const later = await suite.request(0, 'DELETE', `${path}/b`);
  assert.equal(later.status, 200, `delete after NATS is back: ${later.text}`);
});
