// Webhook conversion end to end: a CRD serving two versions of one kind, v1
// `spec.size: "3"` (storage) and v2 `spec.replicas: 3`, converted by a real HTTPS webhook named
// by a service reference, which the gateways reach through --webhook-service-addresses. Writes
// at v2 are stored at v1, reads, lists and watches at v2 are converted (a list in one
// ConversionReview), and a webhook that fails makes the request fail naming it, storing nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, startWebhookServer, waitFor } from '@orch/testing';
import type { Suite, WebhookCall, WebhookServer } from '@orch/testing';
import { convertSizeReplicas, twoVersionCrd } from './two-version-fixture.js';

const group = 'convert.example.com';
const crdName = `sprockets.${group}`;
const crds = '/apis/apiextensions.orch.io/v1/customresourcedefinitions';
const at = (v: string, name = '') =>
  `/apis/${group}/${v}/namespaces/default/sprockets${name ? `/${name}` : ''}`;
type Obj = Record<string, any>;

function reply(call: WebhookCall): { status?: number; body?: unknown; text?: string } {
  const review = call.body as Obj;
  const { uid, desiredAPIVersion, objects } = review.request;
  const converted = (objects as Obj[]).map((o) => convertSizeReplicas(o, desiredAPIVersion));
  const refused = converted.find((c): c is string => typeof c === 'string');
  return {
    body: {
      apiVersion: review.apiVersion,
      kind: 'ConversionReview',
      response: refused
        ? { uid, result: { status: 'Failure', message: refused } }
        : { uid, result: { status: 'Success' }, convertedObjects: converted },
    },
  };
}

const sprocket = (v: string, name: string, spec: Obj): Obj => ({
  apiVersion: `${group}/${v}`,
  kind: 'Sprocket',
  metadata: { name },
  spec,
});

describe('webhook conversion of custom resources (ConversionReview v1)', () => {
  let suite: Suite;
  let hook: WebhookServer;
  /** Replaces the webhook's answer (the default converts). */
  let answer: (call: WebhookCall) => { status?: number; body?: unknown; text?: string } = reply;
  const until = (what: string, ok: () => Promise<boolean>) =>
    waitFor(what, ok, { timeoutMs: 20_000, intervalMs: 20 });
  /** Webhook calls made while `fn` runs. */
  async function calls<T>(fn: () => Promise<T>): Promise<{ result: T; calls: WebhookCall[] }> {
    const from = hook.calls.length;
    const result = await fn();
    return { result, calls: hook.calls.slice(from) };
  }

  before(async () => {
    hook = await startWebhookServer((call) => answer(call), { dnsNames: ['convert.hooks.svc'] });
    suite = await startSuite({
      gateways: 2,
      controllers: true,
      gatewayArgs: [`--webhook-service-addresses=convert.hooks.svc=127.0.0.1:${hook.port}`],
    });
    const crd = twoVersionCrd({
      group,
      plural: 'sprockets',
      kind: 'Sprocket',
      clientConfig: {
        service: { namespace: 'hooks', name: 'convert', path: '/convert' },
        caBundle: hook.caBundle,
      },
    });
    const r = await suite.request(0, 'POST', crds, crd);
    assert.equal(r.status, 201, r.text);
    for (const gw of [0, 1]) {
      await until(`gateway ${gw} serves v2`, async () => {
        return (await suite.request(gw, 'GET', at('v2'))).status === 200;
      });
    }
  });
  after(async () => {
    await suite?.stop();
    await hook?.stop();
  });

  it('a create at v2 is stored at v1 through the webhook; each version reads its own shape', async () => {
    answer = reply;
    const made = await calls(() =>
      suite.request(0, 'POST', at('v2'), sprocket('v2', 'a', { replicas: 3 }))
    );
    assert.equal(made.result.status, 201, made.result.text);
    assert.deepEqual((made.result.body as Obj).spec, { replicas: 3 });
    assert.equal((made.result.body as Obj).apiVersion, `${group}/v2`);
    const desired = made.calls.map((c) => (c.body as Obj).request.desiredAPIVersion);
    assert.ok(
      desired.includes(`${group}/v1`),
      `the write converts to the storage version: ${desired}`
    );
    assert.equal(made.calls[0]!.path, '/convert');
    assert.equal(made.calls[0]!.headers.host, 'convert.hooks.svc');
    // Stored at v1: read at v1 on the other gateway, no conversion is needed.
    await until(
      'gateway 1 sees a',
      async () => (await suite.request(1, 'GET', at('v1', 'a'))).status === 200
    );
    const v1 = await calls(() => suite.request(1, 'GET', at('v1', 'a')));
    assert.deepEqual((v1.result.body as Obj).spec, { size: '3' });
    assert.equal(v1.calls.length, 0);
    const v2 = await calls(() => suite.request(1, 'GET', at('v2', 'a')));
    assert.deepEqual((v2.result.body as Obj).spec, { replicas: 3 });
    assert.equal(v2.calls.length, 1);
    assert.equal((v2.calls[0]!.body as Obj).request.objects[0].apiVersion, `${group}/v1`);
  });

  it('a list at v2 converts every object in one ConversionReview', async () => {
    answer = reply;
    for (const [name, size] of [
      ['b', '1'],
      ['c', '2'],
    ] as const) {
      const r = await suite.request(0, 'POST', at('v1'), sprocket('v1', name, { size }));
      assert.equal(r.status, 201, r.text);
    }
    const listed = await calls(() => suite.request(0, 'GET', at('v2')));
    assert.equal(listed.result.status, 200, listed.result.text);
    const body = listed.result.body as Obj;
    assert.equal(body.apiVersion, `${group}/v2`);
    assert.deepEqual(
      body.items.map((i: Obj) => [i.apiVersion, i.metadata.name, i.spec.replicas]),
      [
        [`${group}/v2`, 'a', 3],
        [`${group}/v2`, 'b', 1],
        [`${group}/v2`, 'c', 2],
      ]
    );
    assert.equal(listed.calls.length, 1);
    assert.equal((listed.calls[0]!.body as Obj).request.objects.length, 3);
  });

  it('a watch at v2 on one gateway gets the converted objects written at v1 through the other', async () => {
    answer = reply;
    const rv = ((await suite.request(0, 'GET', at('v2'))).body as Obj).metadata.resourceVersion;
    const write = await suite.request(1, 'POST', at('v1'), sprocket('v1', 'd', { size: '4' }));
    assert.equal(write.status, 201, write.text);
    const watched = await suite.request(
      0,
      'GET',
      `${at('v2')}?watch=1&resourceVersion=${rv}&timeoutSeconds=2`
    );
    const events = watched.text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Obj);
    assert.deepEqual(
      events.map((e) => [e.type, e.object.apiVersion, e.object.metadata.name, e.object.spec]),
      [['ADDED', `${group}/v2`, 'd', { replicas: 4 }]]
    );
  });

  it('updates and merge patches at v2 of objects stored at v1 are written back at v1', async () => {
    answer = reply;
    const got = (await suite.request(0, 'GET', at('v2', 'b'))).body as Obj;
    const put = await suite.request(0, 'PUT', at('v2', 'b'), { ...got, spec: { replicas: 5 } });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual((put.body as Obj).spec, { replicas: 5 });
    const patched = await suite.request(
      0,
      'PATCH',
      at('v2', 'c'),
      { spec: { replicas: 7 } },
      { 'Content-Type': 'application/merge-patch+json' }
    );
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual((patched.body as Obj).spec, { replicas: 7 });
    for (const [name, size] of [
      ['b', '5'],
      ['c', '7'],
    ]) {
      const v1 = (await suite.request(0, 'GET', at('v1', name!))).body as Obj;
      assert.deepEqual(v1.spec, { size }, name);
    }
  });

  it('a webhook that refuses fails the request naming it, and stores nothing', async () => {
    answer = reply;
    // size "many" is valid at v1 but has no v2 form: reads at v2 fail, at v1 they work.
    assert.equal(
      (await suite.request(0, 'POST', at('v1'), sprocket('v1', 'odd', { size: 'many' }))).status,
      201
    );
    const read = await suite.request(0, 'GET', at('v2', 'odd'));
    assert.equal(read.status, 500);
    assert.equal((read.body as Obj).reason, 'InternalError');
    assert.equal(
      (read.body as Obj).message,
      `Internal error occurred: conversion webhook for ${group}/v1, Kind=Sprocket failed: spec.size "many" is not a number`
    );
    assert.equal((await suite.request(0, 'GET', at('v2'))).status, 500);
    assert.equal((await suite.request(0, 'GET', at('v1', 'odd'))).status, 200);
    // A webhook that answers 503: a create at v2 fails and nothing is stored.
    answer = () => ({ status: 503, text: 'maintenance' });
    const made = await suite.request(0, 'POST', at('v2'), sprocket('v2', 'lost', { replicas: 1 }));
    assert.equal(made.status, 500, made.text);
    assert.match(
      (made.body as Obj).message,
      /conversion webhook for convert\.example\.com\/v2, Kind=Sprocket failed: the server responded with status 503: maintenance/
    );
    answer = reply;
    assert.equal((await suite.request(0, 'GET', at('v1', 'lost'))).status, 404);
    assert.equal((await suite.request(0, 'DELETE', at('v1', 'odd'))).status, 200);
    assert.equal((await suite.request(0, 'GET', at('v2'))).status, 200);
  });

  it('a new storage version: new writes are stored at v2, older objects stay at v1 until rewritten', async () => {
    answer = reply;
    const crd = (await suite.request(0, 'GET', `${crds}/${crdName}`)).body as Obj;
    crd.spec.versions[0].storage = false;
    crd.spec.versions[1].storage = true;
    const r = await suite.request(0, 'PUT', `${crds}/${crdName}`, crd);
    assert.equal(r.status, 200, r.text);
    await until('storedVersions v1, v2', async () => {
      const got = (await suite.request(0, 'GET', `${crds}/${crdName}`)).body as Obj;
      return JSON.stringify(got.status?.storedVersions) === JSON.stringify(['v1', 'v2']);
    });
    await until('gateway 0 stores at v2', async () => {
      const made = await calls(() =>
        suite.request(0, 'POST', at('v2'), sprocket('v2', `e${Date.now()}`, { replicas: 9 }))
      );
      assert.equal(made.result.status, 201, made.result.text);
      return made.calls.length === 0;
    });
    // An old object read at v2 still needs the webhook; a v1 version cannot be dropped yet.
    const old = await calls(() => suite.request(0, 'GET', at('v2', 'a')));
    assert.equal(old.calls.length, 1);
    const dropped = structuredClone(crd);
    dropped.metadata.resourceVersion = undefined;
    dropped.spec.versions = dropped.spec.versions.slice(1);
    const refused = await suite.request(0, 'PUT', `${crds}/${crdName}`, dropped);
    assert.equal(refused.status, 422, refused.text);
    assert.match(refused.text, /status\.storedVersions\[0\]/);
  });
});
