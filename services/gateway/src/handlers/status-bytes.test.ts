// Error and object bodies byte for byte as upstream's JSON serializer writes them (Go's
// json.Encoder: one line ending in a newline, `<`, `>` and `&` escaped; metav1.Status fields in
// the order of its Go type: kind, apiVersion, metadata, status, message, reason, details, code).
// The expected bodies are upstream's encoding of the same answers (kube-apiserver 1.32). Each
// handler runs as the chain runs it: what it throws is written by writeErrorNegotiated, as the
// panic-recovery filter does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HttpResponse } from '../http/handler.js';
import { ResourceRegistry, builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { MemoryStorage } from '@orch/testing/memory-storage';
import { writeErrorNegotiated } from '../negotiation/response-writers.js';
import { configMapStrategy } from '../registry/core/configmaps/strategy.js';
import { Store } from '../registry/store.js';
import { createResource } from './create.js';
import { getResource } from './get.js';
import { listResource } from './list.js';
import type { Storage } from '../registry/rest.js';
import type { RequestScope } from './scope.js';
import { runHandler } from './verb-test-kit.js';

const registry = new ResourceRegistry(builtinResources);
const configMaps = registry.lookup('', 'v1', 'configmaps') as ResourceDefinition;
const path = '/api/v1/namespaces/ns/configmaps';

/** The handler with its errors written as the chain writes them. */
const asChained =
  <R extends Storage>(handler: (scope: RequestScope<R>, res: HttpResponse) => Promise<void>) =>
  async (scope: RequestScope<R>, res: HttpResponse): Promise<void> => {
    try {
      await handler(scope, res);
    } catch (err) {
      writeErrorNegotiated(scope.req, res, err);
    }
  };

const cm = (name: string, data: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

test('404 NotFound body: upstream bytes, newline-terminated', async () => {
  const store = new Store(configMaps, configMapStrategy, new MemoryStorage());
  const a = await runHandler(asChained(getResource), {
    def: configMaps,
    rest: store,
    method: 'GET',
    path: `${path}/x`,
  });
  assert.equal(a.code, 404);
  assert.equal(
    a.body.toString('utf8'),
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"x\\" not found","reason":"NotFound","details":{"name":"x","kind":"configmaps"},"code":404}\n'
  );
});

test('409 AlreadyExists body: upstream bytes, newline-terminated', async () => {
  const store = new Store(configMaps, configMapStrategy, new MemoryStorage());
  const post = () =>
    runHandler(asChained(createResource), {
      def: configMaps,
      rest: store,
      method: 'POST',
      path,
      body: cm('x'),
    });
  assert.equal((await post()).code, 201);
  const a = await post();
  assert.equal(a.code, 409);
  assert.equal(
    a.body.toString('utf8'),
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"x\\" already exists","reason":"AlreadyExists","details":{"name":"x","kind":"configmaps"},"code":409}\n'
  );
});

test('422 Invalid body: upstream bytes, causes in their order, <>& escaped as Go escapes them', async () => {
  const store = new Store(configMaps, configMapStrategy, new MemoryStorage());
  const a = await runHandler(asChained(createResource), {
    def: configMaps,
    rest: store,
    method: 'POST',
    path,
    body: cm('x', { 'a<b': 'v' }),
  });
  assert.equal(a.code, 422);
  const invalid =
    "Invalid value: \\\"a\\u003cb\\\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
  assert.equal(
    a.body.toString('utf8'),
    `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ConfigMap \\"x\\" is invalid: data[a\\u003cb]: ${invalid}","reason":"Invalid","details":{"name":"x","kind":"ConfigMap","causes":[{"reason":"FieldValueInvalid","message":"${invalid}","field":"data[a\\u003cb]"}]},"code":422}\n`
  );
});

test('an object answer ends in a newline as json.Encoder writes it', async () => {
  const store = new Store(configMaps, configMapStrategy, new MemoryStorage());
  const a = await runHandler(asChained(createResource), {
    def: configMaps,
    rest: store,
    method: 'POST',
    path,
    body: cm('x', { html: '<b>&</b>' }),
  });
  assert.equal(a.code, 201);
  const text = a.body.toString('utf8');
  assert.ok(text.endsWith('}\n') && !text.slice(0, -1).includes('\n'), text);
  assert.ok(text.includes('"html":"\\u003cb\\u003e\\u0026\\u003c/b\\u003e"'), text);
  assert.deepEqual(JSON.parse(text).data, { html: '<b>&</b>' });
});

test('a list answer escapes as the object answer does: each item as json.Encoder writes it', async () => {
  const store = new Store(configMaps, configMapStrategy, new MemoryStorage());
  const made = await runHandler(asChained(createResource), {
    def: configMaps,
    rest: store,
    method: 'POST',
    path,
    body: cm('y', { html: '<b>&</b>', sep: '\u2028' }),
  });
  assert.equal(made.code, 201);
  // Plain JSON lists are written from the items' stored bytes (Store.listJson): they must read
  // as upstream's list, which one json.Encoder writes whole.
  const a = await runHandler(asChained(listResource), {
    def: configMaps,
    rest: store,
    method: 'GET',
    path,
  });
  assert.equal(a.code, 200);
  const text = a.body.toString('utf8');
  assert.ok(text.includes('"html":"\\u003cb\\u003e\\u0026\\u003c/b\\u003e"'), text);
  assert.ok(text.includes('"sep":"\\u2028"'), text);
  assert.ok(!/[<>&\u2028]/.test(text), text);
  assert.deepEqual(JSON.parse(text).items[0].data, { html: '<b>&</b>', sep: '\u2028' });
});
