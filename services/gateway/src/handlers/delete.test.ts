// The delete verb handler over a Store on the in-memory storage, without a server (k8s
// apiserver/pkg/endpoints/handlers delete.go DeleteResource): DeleteOptions from the body or the
// query, preconditions, the Success Status, and an object kept by its finalizers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { ResourceRegistry, builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { MemoryStorage } from '@orch/testing/memory-storage';
import { configMapStrategy } from '../registry/core/configmaps/strategy.js';
import { podStrategy } from '../registry/core/pods/strategy.js';
import { Store } from '../registry/store.js';
import { deleteCollection } from './delete-collection.js';
import { deleteResource } from './delete.js';
import { runHandler } from './verb-test-kit.js';

const configMaps = new ResourceRegistry(builtinResources).lookup(
  '',
  'v1',
  'configmaps'
) as ResourceDefinition;
const ctx = { namespace: 'ns' };
const path = '/api/v1/namespaces/ns/configmaps/cfg';

async function storeWith(finalizers?: string[]): Promise<{ store: Store; created: ApiObject }> {
  const store = new Store(configMaps, configMapStrategy, new MemoryStorage());
  const obj = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cfg', namespace: 'ns', ...(finalizers ? { finalizers } : {}) },
  } as ApiObject;
  return { store, created: await store.create(ctx, obj, { dryRun: false }) };
}

const del = (store: Store, query = '', body?: unknown) =>
  runHandler(deleteResource, {
    def: configMaps,
    rest: store,
    method: 'DELETE',
    path: `${path}${query}`,
    body,
  });

test('DELETE answers the Success Status of the removed object, as upstream writes it (no code)', async () => {
  const { store, created } = await storeWith();
  const answer = await del(store);
  assert.equal(answer.code, 200);
  assert.equal(
    answer.body.toString('utf8'),
    `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"cfg","kind":"configmaps","uid":"${created.metadata.uid}"}}\n`
  );
});

test('DELETE of a kind whose store returns the deleted object answers it (pods)', async () => {
  const pods = new ResourceRegistry(builtinResources).lookup(
    '',
    'v1',
    'pods'
  ) as ResourceDefinition;
  const store = new Store(pods, podStrategy, new MemoryStorage());
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns' },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
  } as ApiObject;
  const created = await store.create(ctx, pod, { dryRun: false });
  const answer = await runHandler(deleteResource, {
    def: pods,
    rest: store,
    method: 'DELETE',
    path: '/api/v1/namespaces/ns/pods/p',
  });
  assert.equal(answer.code, 200);
  assert.deepEqual(answer.json(), created);
  await assert.rejects(store.get(ctx, 'p', { consistency: 'MOST_RECENT' }));
});

test('DELETE with a failing uid precondition in the body is 409 and removes nothing', async () => {
  const { store } = await storeWith();
  const body = { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'other' } };
  await assert.rejects(
    del(store, '', body),
    (err: unknown) => err instanceof StatusError && err.code === 409
  );
  assert.equal((await store.get(ctx, 'cfg', { consistency: 'MOST_RECENT' })).metadata.name, 'cfg');
});

test('DELETE of an object with finalizers answers it marked; orphanDependents=false answers 202', async () => {
  const { store } = await storeWith(['example.com/keep']);
  const answer = await del(store, '?orphanDependents=false');
  assert.equal(answer.code, 202);
  const marked = answer.json<ApiObject>();
  assert.ok(marked.metadata.deletionTimestamp);
  assert.deepEqual(marked.metadata.finalizers, ['example.com/keep']);
});

test('DELETE with an unknown propagationPolicy is 422 (ValidateDeleteOptions)', async () => {
  const { store } = await storeWith();
  await assert.rejects(
    del(store, '?propagationPolicy=Sideways'),
    (err: unknown) =>
      err instanceof StatusError &&
      err.code === 422 &&
      err.status.details?.causes?.[0]?.field === 'propagationPolicy'
  );
});

test('DELETE of a collection answers the list of what it deleted (k8s Store.DeleteCollection)', async () => {
  const { store, created } = await storeWith();
  const answer = await runHandler(deleteCollection, {
    def: configMaps,
    rest: store,
    method: 'DELETE',
    path: '/api/v1/namespaces/ns/configmaps',
  });
  assert.equal(answer.code, 200);
  const list = answer.json<{ kind: string; apiVersion: string; items: ApiObject[] }>();
  assert.equal(list.kind, 'ConfigMapList');
  assert.equal(list.apiVersion, 'v1');
  assert.deepEqual(list.items, [created]);
  assert.equal((await store.list(ctx, { consistency: 'MOST_RECENT' })).items.length, 0);
});
