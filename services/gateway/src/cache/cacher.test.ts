// The watch cache against a real suite (etcd, storage gRPC, NATS): consistent reads wait for the
// cache (a quiet type through a progress request), fall back to storage when it cannot catch up
// (counted in the metric), paged lists continue from a kept snapshot exactly as storage pages,
// a watch older than the ring is replayed from storage's history and is 410 once etcd compacted
// it, a lost NATS message is repaired, and a relist ends the open watchers with 410.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Etcd3 } from 'etcd3';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { Registry } from 'prom-client';
import type { Status } from '@orch/apimachinery/errors';
import { StorageClient } from '@orch/apimachinery/grpc';
import { progressRequestSubject } from '@orch/apimachinery/watch';
import { ResourceRegistry, builtinResources, storagePrefix } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { clientCredentials } from '@orch/component-base/grpc-server';
import { createLogger } from '@orch/component-base/logs';
import { startSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import type { Change, FeedListener } from '../watch/change.js';
import { registerCacheMetrics } from './cache-metrics.js';
import type { CacheHooks } from './cacher.js';
import { Cachers } from './cachers.js';

let suite: Suite;
let storage: StorageClient;
let nats: NatsConnection;
const log = createLogger('cache-test', (process.env['CACHE_TEST_LOG'] ?? 'error') as 'error');
const registry = new ResourceRegistry(builtinResources);
const configmaps = registry.lookup('', 'v1', 'configmaps')!;
const secrets = registry.lookup('', 'v1', 'secrets')!;
const services = registry.lookup('', 'v1', 'services')!;
const serviceAccounts = registry.lookup('', 'v1', 'serviceaccounts')!;
const events = registry.lookup('', 'v1', 'events')!;
const ns = 'caching';
const open: Cachers[] = [];

function cachers(
  opts: {
    hooks?: CacheHooks;
    currentRevision?: () => Promise<number>;
    storage?: StorageClient;
    consistentListFromCache?: boolean;
  } = {}
) {
  const c = new Cachers({
    storage: opts.storage ?? storage,
    nats,
    log,
    currentRevision: opts.currentRevision ?? (() => storage.currentRevision()),
    // A test's own revision source is asked instead of the publisher.
    ...(opts.currentRevision ? { publisherRevisionTimeoutMs: 0 } : {}),
    consistentReadTimeoutMs: 1000,
    freshWaitMs: 1000,
    ...(opts.hooks ? { hooks: opts.hooks } : {}),
    ...(opts.consistentListFromCache !== undefined
      ? { consistentListFromCache: opts.consistentListFromCache }
      : {}),
  });
  open.push(c);
  return c;
}

const nameOf = (o: Record<string, unknown>): string => (o['metadata'] as { name: string }).name;

async function create(resource: string, name: string, extra: object = {}): Promise<number> {
  const kind = { configmaps: 'ConfigMap', secrets: 'Secret', services: 'Service' }[resource];
  const res = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/${resource}`, {
    apiVersion: 'v1',
    kind,
    metadata: { name },
    ...extra,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return Number((res.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
}

/** A listener that records what it receives. */
function recorder(): FeedListener & { changes: Change[]; failed: Status[] } {
  const changes: Change[] = [];
  const failed: Status[] = [];
  return {
    changes,
    failed,
    change: (c) => changes.push(c),
    progress: () => undefined,
    fail: (s) => failed.push(s),
  };
}

before(async () => {
  suite = await startSuite();
  const g = suite.pki.file('gateway');
  storage = new StorageClient({
    address: `127.0.0.1:${suite.storagePort}`,
    credentials: clientCredentials({ caFile: suite.pki.caFile, ...g }),
  });
  nats = await connect({ servers: suite.nats.url });
  await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
});

after(async () => {
  for (const c of open) c.stop();
  await nats.close();
  storage.close();
  await suite.stop();
});

const synced = (c: Cachers, def: ResourceDefinition) =>
  waitFor('the cache syncs', async () => c.for(def).start().cache.synced, { timeoutMs: 10_000 });

test('consistent read: served from the cache once it reached the current revision, a quiet type too', async () => {
  const reads: boolean[] = [];
  const c = cachers({ hooks: { onConsistentRead: (_r, fromCache) => reads.push(fromCache) } });
  await synced(c, configmaps);
  await synced(c, secrets);
  const cm = c.for(configmaps);
  // Written through another process: the read after the write must see it.
  await create('configmaps', 'fresh');
  assert.equal(await cm.serves('MOST_RECENT'), true);
  assert.ok(cm.get(`${storagePrefix(configmaps)}${ns}/fresh`));
  // Secrets did not change since: their cache reaches the current revision without a write.
  const before = c.for(secrets).cache.lastRevision;
  await create('configmaps', 'elsewhere');
  assert.equal(await c.for(secrets).serves('MOST_RECENT'), true);
  assert.ok(c.for(secrets).cache.lastRevision > before);
  assert.deepEqual(reads, [true, true]);
});

test("consistent read of a quiet type: the publisher's answer proves the stream up to its revision, so no progress is asked for (no checkpoint write)", async () => {
  const c = cachers();
  await synced(c, configmaps);
  await synced(c, services);
  let progressRequests = 0;
  const counting = nats.subscribe(progressRequestSubject, { callback: () => progressRequests++ });
  await nats.flush();
  try {
    for (let i = 0; i < 5; i++) {
      const written = await create('configmaps', `quiet-${i}`);
      const before = c.revisionSources.publisher;
      assert.equal(await c.for(services).serves('MOST_RECENT'), true);
      assert.equal(c.revisionSources.publisher, before + 1);
      assert.ok(c.for(services).cache.lastRevision >= written);
    }
    await nats.flush();
    assert.equal(progressRequests, 0);
    assert.equal(c.revisionSources.storage, 0);
  } finally {
    counting.unsubscribe();
  }
});

test('feature gate ConsistentListFromCache=false: consistent reads go to storage, other reads still use the cache', async () => {
  const reads: boolean[] = [];
  const c = cachers({
    consistentListFromCache: false,
    hooks: { onConsistentRead: (_r, fromCache) => reads.push(fromCache) },
  });
  await synced(c, configmaps);
  await create('configmaps', 'gated');
  assert.equal(await c.for(configmaps).serves('MOST_RECENT'), false);
  assert.equal(await c.for(configmaps).serves('ANY'), true);
  // Not a fallback: the cache is not asked at all.
  assert.deepEqual(reads, []);
});

test('consistent read: storage answers when the cache cannot reach the revision, counted in the metric', async () => {
  const metricsRegistry = new Registry();
  const holder: { c?: Cachers } = {};
  const metrics = registerCacheMetrics(metricsRegistry, () => holder.c!);
  // A revision the cache will not reach within the wait: storage's own, far ahead.
  const c = cachers({
    currentRevision: async () => (await storage.currentRevision()) + 1_000_000,
    hooks: {
      onConsistentRead: (resource, fromCache) =>
        metrics.consistentReads.inc({
          resource,
          success: 'true',
          fallback: fromCache ? 'false' : 'true',
        }),
    },
  });
  holder.c = c;
  await synced(c, configmaps);
  assert.equal(await c.for(configmaps).serves('MOST_RECENT'), false);
  const text = await metricsRegistry.metrics();
  assert.match(
    text,
    /orch_gateway_watch_cache_consistent_read_total\{resource="configmaps",success="true",fallback="true"\} 1/
  );
  assert.match(
    text,
    /orch_gateway_watch_cache_objects\{resource="\/registry\/core\/configmaps\/"\} \d+/
  );
  // A not-older-than read of a revision not reached in time is 504, as storage answers.
  await assert.rejects(
    c.for(configmaps).serves('NOT_OLDER_THAN', (await storage.currentRevision()) + 1_000_000),
    (err: { status?: Status }) => err.status?.code === 504
  );
});

test('paged list: a continue token pages from the kept snapshot, exactly as storage pages at that revision', async () => {
  const c = cachers();
  await synced(c, services);
  for (let i = 0; i < 5; i++)
    await create('services', `svc-${i}`, { spec: { ports: [{ port: 80 + i }] } });
  const svc = c.for(services);
  const prefix = storagePrefix(services, ns);
  const first = await svc.list(prefix, { consistency: 'MOST_RECENT', limit: 2 });
  assert.ok(first);
  assert.deepEqual(first.items.map(nameOf), ['svc-0', 'svc-1']);
  assert.equal(first.remainingItemCount, 3);
  // Changes after the first page are not in the next pages (the list's revision stays).
  await suite.request(0, 'DELETE', `/api/v1/namespaces/${ns}/services/svc-2`);
  await create('services', 'svc-5', { spec: { ports: [{ port: 90 }] } });
  await waitFor('the cache sees the changes', async () => !!svc.cache.get(`${ns}/svc-5`), {
    timeoutMs: 5000,
  });
  const second = await svc.list(prefix, {
    consistency: 'MOST_RECENT',
    limit: 2,
    continueToken: first.continueToken,
  });
  assert.ok(second, 'served from the snapshot');
  const fromStorage = await storage.list({
    prefix,
    consistency: 'MOST_RECENT',
    limit: 2,
    continueToken: first.continueToken,
  });
  assert.deepEqual(second.items.map(nameOf), ['svc-2', 'svc-3']);
  assert.deepEqual(second.items, fromStorage.items);
  assert.equal(second.revision, first.revision);
  assert.equal(second.revision, fromStorage.revision);
  assert.equal(second.continueToken, fromStorage.continueToken);
  assert.equal(second.remainingItemCount, fromStorage.remainingItemCount);
  const third = await svc.list(prefix, {
    consistency: 'MOST_RECENT',
    limit: 2,
    continueToken: second.continueToken,
  });
  assert.deepEqual(third?.items.map(nameOf), ['svc-4']);
  assert.equal(third?.continueToken, '');
  // A selector filters as storage does (no remaining count).
  const selected = await svc.list(prefix, {
    consistency: 'ANY',
    limit: 1,
    fieldSelector: 'metadata.name!=svc-0',
  });
  const selectedStorage = await storage.list({
    prefix,
    consistency: 'EXACT',
    revision: selected!.revision,
    limit: 1,
    fieldSelector: 'metadata.name!=svc-0',
  });
  assert.deepEqual(selected?.items, selectedStorage.items);
  assert.equal(selected?.remainingItemCount, -1);
  assert.equal(selected?.continueToken, selectedStorage.continueToken);
});

test('watch older than the ring: replayed from storage history, once for concurrent watchers; 410 once etcd compacted it', async () => {
  const from = await create('configmaps', 'before-cache');
  await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'old-change' },
  });
  // The real client, its history replays from the watched revision counted (the cacher's own
  // watch also reads history, from its list's revision, when its stream starts or skips).
  let replays = 0;
  const counted = new Proxy(storage, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (prop === 'history' && args[1] === from) replays++;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const c = cachers({ storage: counted });
  await synced(c, serviceAccounts);
  const sa = c.for(serviceAccounts);
  assert.ok(sa.cache.ringStart > from, 'the ring starts after the revision watched from');
  const before = replays;
  const ws = [recorder(), recorder(), recorder()];
  const stops = await Promise.all(ws.map((w) => sa.watch(w, from)));
  assert.equal(replays - before, 1, 'one replay for the three watchers');
  await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'live-change' },
  });
  for (const w of ws) {
    await waitFor('the live change', async () => w.changes.length >= 2, { timeoutMs: 5000 });
    assert.deepEqual(
      w.changes.map((ch) => `${ch.type} ${nameOf(ch.object)}`),
      ['ADDED old-change', 'ADDED live-change']
    );
  }
  for (const stop of stops) stop();
  // Compacted: the same watch is 410 Expired.
  const etcd = new Etcd3({ hosts: suite.etcd.endpoint });
  await etcd.kv.compact({ revision: await storage.currentRevision() });
  etcd.close();
  await assert.rejects(
    sa.watch(recorder(), from),
    (err: { status?: Status }) => err.status?.code === 410
  );
});

test('a lost NATS message is repaired from history; a relist (history gone) ends the watchers with 410', async () => {
  // The change of this name is lost; or, while dropAll, every message (other components write
  // Events too: losing "the next message" could lose theirs instead, and one of theirs arriving
  // could reveal the gap before it is compacted).
  let dropName: string | undefined;
  let dropAll = false;
  const repairs: number[] = [];
  const c = cachers({
    hooks: {
      dropMessage: (m) => {
        if (dropAll) return true;
        if (m.type === 'PROGRESS' || !dropName || !m.key.endsWith(`/${ns}/${dropName}`))
          return false;
        dropName = undefined;
        return true;
      },
      onGapRepaired: (n) => repairs.push(n),
    },
  });
  await synced(c, events);
  const ep = c.for(events);
  const post = (name: string) =>
    suite.request(0, 'POST', `/api/v1/namespaces/${ns}/events`, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name },
      involvedObject: { kind: 'Namespace', name: ns, namespace: ns },
    });
  // Synced is the list; the watch session replays from it before it trusts a message. A change
  // seen in the cache proves that replay is behind us, so the next message lost is lost for good
  // (one written before the replay would be read back by it, no gap to repair).
  assert.equal((await post('streaming')).status, 201);
  await waitFor('the change stream runs', async () => !!ep.cache.get(`${ns}/streaming`), {
    timeoutMs: 5000,
  });
  const w = recorder();
  await ep.watch(w, ep.cache.lastRevision);
  dropName = 'lost';
  assert.equal((await post('lost')).status, 201);
  assert.equal((await post('after')).status, 201);
  await waitFor('both, the lost one repaired', async () => !!ep.cache.get(`${ns}/after`), {
    timeoutMs: 5000,
  });
  assert.ok(ep.cache.get(`${ns}/lost`));
  assert.equal(repairs.length, 1);
  assert.deepEqual(
    w.changes.map((ch) => nameOf(ch.object)),
    ['lost', 'after']
  );
  // Now lose a message and compact past it before the next one reveals the gap (every message,
  // progress included, is lost meanwhile: any would reveal it).
  dropAll = true;
  await post('lost-for-good');
  await create('configmaps', 'moves-the-revision-on'); // so compaction passes lost-for-good
  const etcd = new Etcd3({ hosts: suite.etcd.endpoint });
  await etcd.kv.compact({ revision: await storage.currentRevision() });
  etcd.close();
  dropAll = false;
  await post('reveals-the-gap');
  await waitFor('the watcher ended with 410', async () => w.failed.length === 1, {
    timeoutMs: 10_000,
  });
  assert.equal(w.failed[0]?.code, 410);
  await waitFor(
    'the relisted cache has both',
    async () => !!ep.cache.get(`${ns}/reveals-the-gap`),
    {
      timeoutMs: 10_000,
    }
  );
  assert.ok(ep.cache.get(`${ns}/lost-for-good`));
  assert.equal(ep.cache.relists, 1);
  assert.equal(ep.cache.listenerCount, 0);
});

test('after stop, a read of a type not cached yet starts nothing (a gateway shutting down lists no more)', async () => {
  const c = cachers();
  const before = c.for(configmaps).start();
  c.stop();
  const late = c.for(secrets).start();
  assert.equal(late.started, false, 'a cacher made after the stop does not start');
  assert.equal(before.started, true);
  assert.equal(await late.serves('MOST_RECENT'), false, 'its reads go to storage');
});
