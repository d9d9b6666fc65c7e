// An update's first attempt from the watch cache's copy, against a real suite (etcd, storage
// gRPC, NATS): with a synced cache the update makes no storage read; with a cache held stale
// (its NATS messages dropped), a pinned resourceVersion the copy has not reached, a read-modify-
// write and a write the copy says changes nothing all end as they would from storage's object.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { StorageClient } from '@orch/apimachinery/grpc';
import type { ApiObject } from '@orch/apimachinery/meta';
import { ResourceRegistry, builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { clientCredentials } from '@orch/component-base/grpc-server';
import { createLogger } from '@orch/component-base/logs';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { Cachers } from '../cache/cachers.js';
import { configMapStrategy } from './core/configmaps/strategy.js';
import { Store } from './store.js';

let suite: Suite;
let storage: StorageClient;
let nats: NatsConnection;
let cachers: Cachers;
/** Storage reads of one object (the update loop's read), counted on the real client. */
let gets = 0;
/** While true, the cache's NATS messages are dropped: it stays at what it last saw. */
let frozen = false;
const ns = 'cached-update';
const ctx = { namespace: ns };
const write = { dryRun: false };
const registry = new ResourceRegistry(builtinResources);
const configMaps = registry.lookup('', 'v1', 'configmaps') as ResourceDefinition;
const log = createLogger('cached-update-test', 'error');

before(async () => {
  suite = await sharedSuite();
  storage = new StorageClient({
    address: `127.0.0.1:${suite.storagePort}`,
    credentials: clientCredentials({ caFile: suite.pki.caFile, ...suite.pki.file('gateway') }),
  });
  const get = storage.get.bind(storage);
  storage.get = (...args) => {
    gets++;
    return get(...args);
  };
  nats = await connect({ servers: suite.nats.url });
  cachers = new Cachers({
    storage,
    nats,
    log,
    currentRevision: () => storage.currentRevision(),
    hooks: { dropMessage: (m) => frozen && m.type !== 'PROGRESS' },
  });
  const created = await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  assert.ok([201, 409].includes(created.status), JSON.stringify(created.body));
});

after(async () => {
  cachers.stop();
  await nats.close();
  storage.close();
});

const store = () => new Store(configMaps, configMapStrategy, storage, cachers);
const cm = (name: string, data: Record<string, string>): ApiObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data }) as ApiObject;
const rvOf = (o: ApiObject): string => o.metadata.resourceVersion ?? '';
const cacher = () => cachers.for(configMaps);

/** Creates `name` and waits until the cache holds it. */
async function seeded(name: string, data: Record<string, string>): Promise<ApiObject> {
  const created = await store().create(ctx, cm(name, data), write);
  await waitFor(
    `the cache holds ${name}`,
    async () => {
      const c = cacher().start();
      return (
        c.cache.synced && c.cache.getByKey(`/registry/core/configmaps/${ns}/${name}`) !== undefined
      );
    },
    { timeoutMs: 10_000 }
  );
  return created;
}

/** Writes through another store with the cache frozen: storage moves on, the cache does not. */
async function behindTheCache(name: string, data: Record<string, string>): Promise<ApiObject> {
  frozen = true;
  const other = new Store(configMaps, configMapStrategy, storage);
  const { object } = await other.update(ctx, name, async () => cm(name, data), write);
  return object;
}

test('from a synced cache: no storage read, the write conditional on the copy', async () => {
  frozen = false;
  const first = await seeded('fresh', { a: '1' });
  await waitFor(
    'the cache reached the create',
    async () => cacher().cache.lastRevision >= Number(rvOf(first)),
    { timeoutMs: 10_000 }
  );
  gets = 0;
  const { object } = await store().update(ctx, 'fresh', async () => cm('fresh', { a: '2' }), write);
  assert.equal(gets, 0);
  assert.deepEqual(object.data, { a: '2' });
  assert.ok(Number(rvOf(object)) > Number(rvOf(first)));
});

test('a stale copy: the write loses its condition, the update reads storage and builds on its object', async () => {
  frozen = false;
  await seeded('stale', { a: '1' });
  const moved = await behindTheCache('stale', { a: '1', b: 'written-elsewhere' });
  gets = 0;
  const seen: ApiObject[] = [];
  const { object } = await store().update(
    ctx,
    'stale',
    async (current) => {
      seen.push(structuredClone(current as ApiObject));
      const next = current as ApiObject;
      next['data'] = { ...(next['data'] as Record<string, string>), c: 'added' };
      return next;
    },
    write
  );
  frozen = false;
  assert.equal(seen.length, 2, 'one attempt on the copy, one on storage');
  assert.deepEqual(seen[0]?.data, { a: '1' });
  assert.equal(rvOf(seen[1]!), rvOf(moved));
  assert.equal(gets, 1);
  assert.deepEqual(object.data, { a: '1', b: 'written-elsewhere', c: 'added' });
});

test('a stale copy: a pinned resourceVersion it has not reached is no conflict', async () => {
  frozen = false;
  await seeded('pinned', { a: '1' });
  const moved = await behindTheCache('pinned', { a: '2' });
  const desired = cm('pinned', { a: '3' });
  desired.metadata.resourceVersion = rvOf(moved);
  const { object } = await store().update(ctx, 'pinned', async () => desired, write);
  frozen = false;
  assert.deepEqual(object.data, { a: '3' });
  // A pinned resourceVersion older than storage's is still 409.
  const old = cm('pinned', { a: '4' });
  old.metadata.resourceVersion = rvOf(moved);
  await assert.rejects(
    store().update(ctx, 'pinned', async () => structuredClone(old), write),
    (err: { status?: { code?: number } }) => err.status?.code === 409
  );
});

test('a stale copy: a write the copy says changes nothing is written when storage differs', async () => {
  frozen = false;
  await seeded('noop', { a: '1' });
  await behindTheCache('noop', { a: '2' });
  const { object } = await store().update(ctx, 'noop', async () => cm('noop', { a: '1' }), write);
  frozen = false;
  assert.deepEqual(object.data, { a: '1' });
  const read = await storage.get(`/registry/core/configmaps/${ns}/noop`, 'MOST_RECENT');
  assert.deepEqual(read['data'], { a: '1' });
});
