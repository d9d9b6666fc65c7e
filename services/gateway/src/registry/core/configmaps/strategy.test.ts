// The ConfigMap strategy through the generic Store over the in-memory storage (no process):
// upstream's ValidateConfigMap and ValidateConfigMapUpdate (k8s pkg/apis/core/validation
// TestValidateConfigMap, TestValidateConfigMapUpdate) as the API answers them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { ResourceRegistry, builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { MemoryStorage } from '@orch/testing/memory-storage';
import { Store } from '../../store.js';
import { configMapStrategy } from './strategy.js';

const def = new ResourceRegistry(builtinResources).lookup('', 'v1', 'configmaps');
const ctx = { namespace: 'ns' };
const write = { dryRun: false };

const newStore = (): Store =>
  new Store(def as ResourceDefinition, configMapStrategy, new MemoryStorage());

const cm = (name: string, more: Record<string, unknown> = {}): ApiObject =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'ns' },
    ...more,
  }) as ApiObject;

/** The causes of a 422, as `field: reason`. */
async function invalid(p: Promise<unknown>): Promise<string[]> {
  try {
    await p;
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    assert.equal(err.code, 422, err.message);
    return (err.status.details?.causes ?? []).map((c) => `${c.field}: ${c.reason}`);
  }
  assert.fail('expected 422 Invalid');
}

test('a ConfigMap key that is not a config key is refused on create (ValidateConfigMap)', async () => {
  const store = newStore();
  const causes = await invalid(store.create(ctx, cm('a', { data: { 'bad key': 'v' } }), write));
  assert.deepEqual(causes, ['data[bad key]: FieldValueInvalid']);
  const both = await invalid(
    store.create(ctx, cm('b', { data: { k: 'v' }, binaryData: { k: 'dg==' } }), write)
  );
  assert.deepEqual(both, ['binaryData[k]: FieldValueInvalid']);
});

test('an immutable ConfigMap keeps its data and stays immutable (ValidateConfigMapUpdate)', async () => {
  const store = newStore();
  await store.create(ctx, cm('a', { data: { k: 'v' }, immutable: true }), write);
  const data = await invalid(
    store.update(ctx, 'a', (cur) => ({ ...cur!, data: { k: 'changed' } }), write)
  );
  assert.deepEqual(data, ['data: FieldValueForbidden']);
  const mutable = await invalid(
    store.update(ctx, 'a', (cur) => ({ ...cur!, immutable: false }), write)
  );
  assert.deepEqual(mutable, ['immutable: FieldValueForbidden']);
  const labelled = await store.update(
    ctx,
    'a',
    (cur) => ({ ...cur!, metadata: { ...cur!.metadata, labels: { l: '1' } } }),
    write
  );
  assert.deepEqual(labelled.object.metadata.labels, { l: '1' }, 'metadata may still change');
});

test('a mutable ConfigMap takes new data', async () => {
  const store = newStore();
  await store.create(ctx, cm('a', { data: { k: 'v' } }), write);
  const { object } = await store.update(ctx, 'a', (cur) => ({ ...cur!, data: { k: 'w' } }), write);
  assert.deepEqual(object['data'], { k: 'w' });
});
