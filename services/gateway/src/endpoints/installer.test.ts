// The resource routes without a server (the Stores on the in-memory storage): which verb reaches
// which handler, a PUT that creates, and what a path or method nothing serves answers, as
// upstream's go-restful routes answer them (k8s endpoints/installer.go registers a route per
// verb the storage implements; a method no route takes is 405, a path none matches is 404).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiObject } from '@orch/apimachinery/meta';
import { ResourceRegistry, builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { MemoryStorage } from '@orch/testing/memory-storage';
import type { Admission } from '../admission/interfaces.js';
import { serveRequest } from '../handlers/verb-test-kit.js';
import { deploymentStrategy } from '../registry/apps/deployments/strategy.js';
import { configMapStrategy } from '../registry/core/configmaps/strategy.js';
import { restKey } from '../registry/rest.js';
import type { Storage } from '../registry/rest.js';
import { StatusRest } from '../registry/status-rest.js';
import { Store } from '../registry/store.js';
import { requestInfoOf } from '../request/request-info.js';
import type { RequestInfo } from '../request/request-info.js';
import { handlerFor, resourceHandler } from './installer.js';

const registry = new ResourceRegistry(builtinResources);
const configMaps = registry.lookup('', 'v1', 'configmaps') as ResourceDefinition;
const deployments = registry.lookup('apps', 'v1', 'deployments') as ResourceDefinition;

/** The routes over configmaps and deployments (with status), each write's admission recorded. */
function routes(storage = new MemoryStorage()) {
  const operations: string[] = [];
  const admission: Admission = {
    admit: (a) => {
      operations.push(`${a.operation} ${a.resource.resource} ${a.name}`);
      return Promise.resolve();
    },
    validate: () => Promise.resolve(),
  };
  const deploymentStore = new Store(deployments, deploymentStrategy, storage);
  const rest = new Map<string, Storage>([
    [restKey(configMaps), new Store(configMaps, configMapStrategy, storage)],
    [restKey(deployments), deploymentStore],
    [restKey(deployments, 'status'), new StatusRest(deploymentStore)],
  ]);
  const handler = resourceHandler({ registry, rest, admission, maxWatchSeconds: 60 });
  return {
    operations,
    call: (method: string, path: string, body?: unknown) =>
      serveRequest(handler, { method, path, ...(body === undefined ? {} : { body }) }),
  };
}

const cms = '/api/v1/namespaces/ns/configmaps';
const cm = (name: string, data: Record<string, string> = { a: '1' }) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});
const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    },
  },
};

/** go-restful's 405 as k8s' serviceErrorHandler writes it (NewGenericServerResponse). */
const methodNotAllowed = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server does not allow this method on the requested resource',
  reason: 'MethodNotAllowed',
  details: {},
  code: 405,
};

test('Resource paths: "PUT | object path | object | updated or created object": a PUT of a missing object creates it (201, admitted as CREATE), the next one updates it (200)', async () => {
  const { call, operations } = routes();
  const created = await call('PUT', `${cms}/made`, cm('made'));
  assert.equal(created.code, 201, created.body.toString());
  const obj = created.json<ApiObject>();
  assert.equal(obj.metadata.name, 'made');
  assert.equal(obj.metadata.namespace, 'ns');
  assert.ok(obj.metadata.uid, 'a created object has a uid');
  assert.ok(obj.metadata.creationTimestamp);
  const read = await call('GET', `${cms}/made`);
  assert.equal(read.code, 200);
  assert.deepEqual(read.json()['data'], { a: '1' });
  const updated = await call('PUT', `${cms}/made`, cm('made', { a: '2' }));
  assert.equal(updated.code, 200);
  assert.equal(updated.json<ApiObject>().metadata.uid, obj.metadata.uid);
  // API verbs: "PUT is classified internally as create or update depending on whether the
  // object exists".
  assert.deepEqual(operations, ['CREATE configmaps made', 'UPDATE configmaps made']);
});

test('API verbs: "get, create, apply, update, patch, delete and proxy act on a single resource only": PUT and PATCH of a collection are 405 with upstream\'s Status', async () => {
  const { call } = routes();
  const put = await call('PUT', cms, cm('x'));
  assert.equal(put.code, 405);
  assert.deepEqual(put.json(), methodNotAllowed);
  assert.equal(
    put.body.toString(),
    `${JSON.stringify(methodNotAllowed)}\n`,
    "byte for byte as Go's encoder writes it"
  );
  const patch = await call('PATCH', cms, { data: { a: '2' } });
  assert.equal(patch.code, 405);
  assert.deepEqual(patch.json(), methodNotAllowed);
  assert.equal((await call('GET', `${cms}/x`)).code, 404, 'and nothing was written');
});

test('API verbs: get, update, patch and delete without a name reach no handler (405), with one they do', () => {
  const store = new Store(configMaps, configMapStrategy, new MemoryStorage());
  const info = (verb: string, name: string): RequestInfo => ({
    ...requestInfoOf('GET', new URL(`https://gateway.test${cms}/${name}`)),
    verb,
    name,
  });
  for (const verb of ['get', 'update', 'patch', 'delete']) {
    assert.equal(handlerFor(info(verb, ''), store), undefined, `${verb} without a name`);
    assert.notEqual(handlerFor(info(verb, 'x'), store), undefined, `${verb} with a name`);
  }
});

test('Resource paths: "Subresources cannot be accessed across several resources at once": list, watch and deletecollection of a subresource are 405', async () => {
  const { call } = routes();
  const deps = '/apis/apps/v1/namespaces/ns/deployments';
  assert.equal((await call('POST', deps, deployment)).code, 201);
  assert.equal((await call('GET', `${deps}/web/status`)).code, 200, 'get of the subresource');
  const watch = await call('GET', `${deps}/web/status?watch=1`);
  assert.equal(watch.code, 405);
  assert.deepEqual(watch.json(), methodNotAllowed);
  // A path cannot say list or deletecollection with a subresource (no name, no subresource);
  // the routes refuse them all the same.
  const status = new StatusRest(new Store(deployments, deploymentStrategy, new MemoryStorage()));
  const store = new Store(deployments, deploymentStrategy, new MemoryStorage());
  const sub = (verb: string): RequestInfo => ({
    ...requestInfoOf('GET', new URL(`https://gateway.test${deps}/web/status`)),
    verb,
  });
  for (const verb of ['list', 'watch', 'deletecollection']) {
    assert.equal(handlerFor(sub(verb), status), undefined, `${verb} of status`);
    assert.equal(handlerFor(sub(verb), store), undefined, `${verb} of a subresource, any REST`);
  }
});

test('Object metadata: "The API has no kind named List": /api/v1/lists is a path nothing serves (404), and no served kind is List', async () => {
  const { call } = routes();
  for (const path of ['/api/v1/lists', '/api/v1/namespaces/ns/lists', '/api/v1/lists/x']) {
    const r = await call('GET', path);
    assert.equal(r.code, 404, path);
    assert.deepEqual(r.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server could not find the requested resource',
      reason: 'NotFound',
      details: {},
      code: 404,
    });
  }
  assert.deepEqual(
    builtinResources.filter((d) => d.kind === 'List' || d.resource === 'lists'),
    []
  );
});

test('Errors: "Retry-After header" on the 504 of a resourceVersion not reached in time (Too large resource version)', async () => {
  const { call } = routes(new MemoryStorage({ revisionWaitMs: 200 }));
  assert.equal((await call('POST', cms, cm('c'))).code, 201);
  const r = await call('GET', `${cms}/c?resourceVersion=99999`);
  assert.equal(r.code, 504);
  assert.equal(r.json()['reason'], 'Timeout');
  assert.match(r.json<{ message: string }>().message, /^Too large resource version: 99999/);
  assert.equal(r.headers['retry-after'], '1');
  assert.deepEqual(r.json()['details'], {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
});
