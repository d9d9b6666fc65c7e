// The generic Store over the in-memory storage (no process): the sequence every write follows,
// as upstream's generic registry store tests (k8s apiserver/pkg/registry/generic/registry
// store_test.go) check it: create's system fields, get, update's preconditions and conflict
// retries, delete's preconditions, finalizers and garbage collector policies, dry run, lists.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { ResourceRegistry, builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { MemoryStorage } from '@orch/testing/memory-storage';
import { horizontalPodAutoscalerStrategy } from './autoscaling/horizontalpodautoscalers/strategy.js';
import { configMapStrategy } from './core/configmaps/strategy.js';
import type { RestContext } from './rest.js';
import { Store } from './store.js';

const registry = new ResourceRegistry(builtinResources);
const configMaps = registry.lookup('', 'v1', 'configmaps') as ResourceDefinition;
const ctx: RestContext = { namespace: 'ns' };
const write = { dryRun: false };
const dryRun = { dryRun: true };
const latest = { consistency: 'MOST_RECENT' } as const;

function newStore(): { store: Store; storage: MemoryStorage } {
  const storage = new MemoryStorage({ revisionWaitMs: 100 });
  return { store: new Store(configMaps, configMapStrategy, storage), storage };
}

const cm = (name: string, more: Record<string, unknown> = {}): ApiObject =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'ns' },
    data: { a: '1' },
    ...more,
  }) as ApiObject;

/** The Status of a rejected promise. */
async function statusOf(p: Promise<unknown>): Promise<StatusError['status']> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StatusError) return err.status;
    throw err;
  }
  assert.fail('expected a Status error');
}

test('create fills the system fields and drops those the client set (k8s rest.BeforeCreate)', async () => {
  const { store } = newStore();
  const sent = cm('a');
  sent.metadata.uid = 'client-uid';
  sent.metadata.creationTimestamp = '2001-01-01T00:00:00Z';
  sent.metadata.generation = 7;
  const created = await store.create(ctx, sent, write);
  const meta = created.metadata;
  assert.match(meta.uid ?? '', /^[0-9a-f-]{36}$/);
  assert.notEqual(meta.uid, 'client-uid');
  assert.notEqual(meta.creationTimestamp, '2001-01-01T00:00:00Z');
  assert.ok(Date.parse(meta.creationTimestamp ?? '') > Date.parse('2020-01-01'));
  assert.equal(meta.generation, 1);
  assert.match(meta.resourceVersion ?? '', /^\d+$/);
  assert.deepEqual(await store.get(ctx, 'a', latest), created);
});

test('create with generateName names the object from the prefix (k8s names.SimpleNameGenerator)', async () => {
  const { store } = newStore();
  const obj = cm('');
  delete obj.metadata.name;
  obj.metadata.generateName = 'gen-';
  const created = await store.create(ctx, obj, write);
  assert.match(created.metadata.name ?? '', /^gen-[a-z0-9]{5}$/);
  assert.equal(created.metadata.generateName, 'gen-');
  assert.equal(
    (await store.get(ctx, created.metadata.name ?? '', latest)).metadata.uid,
    created.metadata.uid
  );
});

test('create of a taken name is 409 AlreadyExists, of an object with a resourceVersion 422', async () => {
  const { store } = newStore();
  await store.create(ctx, cm('a'), write);
  const exists = await statusOf(store.create(ctx, cm('a'), write));
  assert.equal(exists.code, 409);
  assert.equal(exists.reason, 'AlreadyExists');
  assert.equal(exists.message, 'configmaps "a" already exists');
  const withRv = cm('b');
  withRv.metadata.resourceVersion = '12';
  const invalid = await statusOf(store.create(ctx, withRv, write));
  assert.equal(invalid.code, 422);
  assert.equal(invalid.details?.causes?.[0]?.field, 'metadata.resourceVersion');
  assert.equal((await statusOf(store.get(ctx, 'b', latest))).code, 404);
});

test('get of a missing object is 404 with upstream message', async () => {
  const { store } = newStore();
  const status = await statusOf(store.get(ctx, 'missing', latest));
  assert.equal(status.code, 404);
  assert.equal(status.message, 'configmaps "missing" not found');
  assert.deepEqual(status.details, { name: 'missing', kind: 'configmaps' });
});

test('update with a stale resourceVersion is 409 with upstream message and writes nothing', async () => {
  const { store, storage } = newStore();
  const created = await store.create(ctx, cm('a'), write);
  await store.update(ctx, 'a', (cur) => ({ ...cur!, data: { a: '2' } }), write);
  const before = await storage.currentRevision();
  const status = await statusOf(
    store.update(ctx, 'a', () => ({ ...created, data: { a: '3' } }), write)
  );
  assert.equal(status.code, 409);
  assert.equal(
    status.message,
    'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again'
  );
  assert.equal(await storage.currentRevision(), before);
  assert.deepEqual((await store.get(ctx, 'a', latest))['data'], { a: '2' });
});

test('guaranteed update reads again and retries when it loses a race (k8s GuaranteedUpdate)', async () => {
  const { store, storage } = newStore();
  await store.create(ctx, cm('a', { data: { a: '1' } }), write);
  const key = store.key('ns', 'a');
  let calls = 0;
  const result = await store.update(
    ctx,
    'a',
    async (cur) => {
      calls++;
      if (calls === 1) {
        // Another writer wins between the Store's read and its write.
        const other = await storage.get(key, 'MOST_RECENT');
        await storage.update(key, { ...other, data: { ...(other['data'] as object), b: '2' } }, {});
      }
      // Without a resourceVersion, as a PUT that does not pin one.
      const { resourceVersion: _rv, ...meta } = cur!.metadata;
      return { ...cur!, metadata: meta, data: { ...(cur!['data'] as object), c: '3' } };
    },
    write
  );
  assert.equal(calls, 2, 'the update function ran again on the fresh object');
  assert.deepEqual(result.object['data'], { a: '1', b: '2', c: '3' }, 'no write lost');
});

test('an update pinned to the revision it read is 409 when it loses the race, never retried', async () => {
  const { store, storage } = newStore();
  await store.create(ctx, cm('a'), write);
  const key = store.key('ns', 'a');
  let calls = 0;
  const status = await statusOf(
    store.update(
      ctx,
      'a',
      async (cur) => {
        calls++;
        const other = await storage.get(key, 'MOST_RECENT');
        await storage.update(key, { ...other, data: { b: '2' } }, {});
        return { ...cur!, data: { c: '3' } }; // carries the resourceVersion it read
      },
      write
    )
  );
  assert.equal(status.code, 409);
  assert.equal(calls, 1);
  assert.deepEqual((await store.get(ctx, 'a', latest))['data'], { b: '2' });
});

test('an update that changes nothing is not written (k8s: GuaranteedUpdate short-circuits)', async () => {
  const { store, storage } = newStore();
  const created = await store.create(ctx, cm('a'), write);
  const before = await storage.currentRevision();
  const { object } = await store.update(ctx, 'a', (cur) => cur!, write);
  assert.equal(object.metadata.resourceVersion, created.metadata.resourceVersion);
  assert.equal(await storage.currentRevision(), before);
});

test('update of a missing object creates it when allowed (AllowCreateOnUpdate), else 404', async () => {
  const { store } = newStore();
  const notFound = await statusOf(
    store.update(ctx, 'a', () => cm('a'), { ...write, forceAllowCreate: false })
  );
  assert.equal(notFound.code, 404);
  const { object, created } = await store.update(ctx, 'a', () => cm('a'), write);
  assert.equal(created, true);
  assert.equal(object.metadata.generation, 1);
});

test('validating admission sees the final object and its refusal stores nothing', async () => {
  const { store, storage } = newStore();
  const seen: string[] = [];
  const refuse = (obj: ApiObject): Promise<void> => {
    seen.push(obj.metadata.uid ?? 'no uid');
    return Promise.reject(new Error('refused'));
  };
  await assert.rejects(
    store.create(ctx, cm('a'), { ...write, createValidation: refuse }),
    /refused/
  );
  assert.match(seen[0] ?? '', /^[0-9a-f-]{36}$/, 'after the system fields were set');
  assert.equal(await storage.currentRevision(), 1);
});

test('delete with a uid or resourceVersion precondition that fails is 409 (k8s Preconditions)', async () => {
  const { store } = newStore();
  const created = await store.create(ctx, cm('a'), write);
  const uid = await statusOf(store.delete(ctx, 'a', { ...write, preconditions: { uid: 'other' } }));
  assert.equal(uid.code, 409);
  assert.equal(
    uid.message,
    `Operation cannot be fulfilled on configmaps "a": Precondition failed: UID in precondition: other, UID in object meta: ${created.metadata.uid}`
  );
  const rv = await statusOf(
    store.delete(ctx, 'a', { ...write, preconditions: { resourceVersion: '1' } })
  );
  assert.equal(rv.code, 409);
  assert.match(
    rv.message ?? '',
    /ResourceVersion in precondition: 1, ResourceVersion in object meta:/
  );
  const done = await store.delete(ctx, 'a', {
    ...write,
    preconditions: { uid: created.metadata.uid, resourceVersion: created.metadata.resourceVersion },
  });
  assert.equal(done.code, 200);
  assert.equal((done.object as { status?: string }).status, 'Success');
  assert.equal((await statusOf(store.get(ctx, 'a', latest))).code, 404);
});

test('delete of an object with finalizers marks it; removing the last finalizer removes it (k8s TestStoreDeleteWithFinalizers)', async () => {
  const { store } = newStore();
  await store.create(
    ctx,
    cm('a', { metadata: { name: 'a', namespace: 'ns', finalizers: ['example.com/f'] } }),
    write
  );
  const marked = await store.delete(ctx, 'a', write);
  const meta = (marked.object as ApiObject).metadata;
  assert.ok(meta.deletionTimestamp, 'marked');
  assert.equal(meta.deletionGracePeriodSeconds, 0);
  assert.equal(meta.generation, 2, 'generation raised by the first mark');
  const again = await store.delete(ctx, 'a', write);
  assert.equal((again.object as ApiObject).metadata.deletionTimestamp, meta.deletionTimestamp);
  const { object } = await store.update(
    ctx,
    'a',
    (cur) => ({ ...cur!, metadata: { ...cur!.metadata, finalizers: [] } }),
    write
  );
  assert.ok(object.metadata.deletionTimestamp);
  assert.equal(
    (await statusOf(store.get(ctx, 'a', latest))).code,
    404,
    'gone with its last finalizer'
  );
});

test('delete with propagationPolicy Orphan or Foreground sets the garbage collector finalizer', async () => {
  const { store } = newStore();
  await store.create(ctx, cm('o'), write);
  await store.create(ctx, cm('f'), write);
  const orphan = await store.delete(ctx, 'o', { ...write, propagationPolicy: 'Orphan' });
  assert.deepEqual((orphan.object as ApiObject).metadata.finalizers, ['orphan']);
  const foreground = await store.delete(ctx, 'f', { ...write, propagationPolicy: 'Foreground' });
  assert.deepEqual((foreground.object as ApiObject).metadata.finalizers, ['foregroundDeletion']);
  await store.create(
    ctx,
    cm('k', { metadata: { name: 'k', namespace: 'ns', finalizers: ['example.com/f'] } }),
    write
  );
  const accepted = await store.delete(ctx, 'k', { ...write, orphanDependents: false });
  assert.equal(accepted.code, 202, 'orphanDependents=false answers 202 for an object left');
});

test('dry run runs create, update and delete through and writes nothing', async () => {
  const { store, storage } = newStore();
  await store.create(ctx, cm('a'), write);
  const before = await storage.currentRevision();
  const created = await store.create(ctx, cm('b'), dryRun);
  assert.ok(created.metadata.uid, 'answered as created');
  const taken = await statusOf(store.create(ctx, cm('a'), dryRun));
  assert.equal(taken.reason, 'AlreadyExists');
  const updated = await store.update(ctx, 'a', (cur) => ({ ...cur!, data: { a: '9' } }), dryRun);
  assert.deepEqual(updated.object['data'], { a: '9' });
  const deleted = await store.delete(ctx, 'a', dryRun);
  assert.equal(deleted.code, 200);
  assert.equal(await storage.currentRevision(), before);
  assert.equal((await statusOf(store.get(ctx, 'b', latest))).code, 404);
  assert.deepEqual((await store.get(ctx, 'a', latest))['data'], { a: '1' });
});

test('list pages through one snapshot with limit and continue, in key order', async () => {
  const { store } = newStore();
  for (const name of ['c', 'a', 'b']) await store.create(ctx, cm(name), write);
  const first = await store.list(ctx, { consistency: 'MOST_RECENT', limit: 2 });
  assert.deepEqual(
    first.items.map((o) => o.metadata.name),
    ['a', 'b']
  );
  assert.equal(first.remainingItemCount, 1);
  assert.equal(first.items[0]?.kind, 'ConfigMap');
  await store.create(ctx, cm('d'), write);
  const rest = await store.list(ctx, {
    consistency: 'MOST_RECENT',
    limit: 2,
    continueToken: first.continueToken,
  });
  assert.deepEqual(
    rest.items.map((o) => o.metadata.name),
    ['c']
  );
  assert.equal(rest.revision, first.revision);
  const all = await store.listJson({ namespace: undefined }, { consistency: 'MOST_RECENT' });
  assert.equal(all.items.length, 4);
  assert.ok(
    all.items[0]
      ?.toString()
      .startsWith('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"resourceVersion"')
  );
});

test('a kind stored at another version is converted on the way in and out (autoscaling/v1 HPAs stored as v2)', async () => {
  const def = registry.lookup(
    'autoscaling',
    'v1',
    'horizontalpodautoscalers'
  ) as ResourceDefinition;
  const storage = new MemoryStorage();
  const store = new Store(def, horizontalPodAutoscalerStrategy, storage);
  const hpa = {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'ns' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 70,
    },
  } as ApiObject;
  const created = await store.create(ctx, hpa, write);
  assert.equal(created.apiVersion, 'autoscaling/v1');
  assert.equal(
    (created['spec'] as { targetCPUUtilizationPercentage?: number }).targetCPUUtilizationPercentage,
    70
  );
  const stored = await storage.get(store.key('ns', 'web'), 'MOST_RECENT');
  assert.equal(stored['apiVersion'], 'autoscaling/v2');
  assert.deepEqual((stored['spec'] as { metrics?: unknown[] }).metrics, [
    {
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
    },
  ]);
  const listed = await store.list(ctx, { consistency: 'MOST_RECENT' });
  assert.equal(listed.items[0]?.apiVersion, 'autoscaling/v1');
  assert.deepEqual(listed.items[0]?.['spec'], created['spec']);
});
