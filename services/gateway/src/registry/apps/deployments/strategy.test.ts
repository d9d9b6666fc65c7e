// The Deployment strategy and its status subresource through the generic Store over the
// in-memory storage (no process), as upstream's pkg/registry/apps/deployment strategy_test.go
// checks them: status is dropped on create and kept by spec writes, the status subresource
// ignores spec changes and keeps generation, spec changes raise generation, and apps/v1's
// selector is immutable.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { ResourceRegistry, builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { MemoryStorage } from '@orch/testing/memory-storage';
import { StatusRest } from '../../status-rest.js';
import { Store } from '../../store.js';
import { deploymentStrategy } from './strategy.js';

const def = new ResourceRegistry(builtinResources).lookup('apps', 'v1', 'deployments');
const ctx = { namespace: 'ns' };
const write = { dryRun: false };
const latest = { consistency: 'MOST_RECENT' } as const;

const newStore = (): Store =>
  new Store(def as ResourceDefinition, deploymentStrategy, new MemoryStorage());

const deployment = (replicas: number, status?: Record<string, unknown>): ApiObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'ns' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    },
    ...(status ? { status } : {}),
  }) as ApiObject;

const specOf = (o: ApiObject): { replicas: number; selector: unknown } =>
  o['spec'] as { replicas: number; selector: unknown };

test('create drops the status a client sent (deploymentStrategy.PrepareForCreate)', async () => {
  const store = newStore();
  const created = await store.create(ctx, deployment(1, { replicas: 5 }), write);
  // Reset to the empty DeploymentStatus, which Go writes as `status: {}`.
  assert.deepEqual(created['status'], {});
  assert.equal(created.metadata.generation, 1);
});

test('a spec write raises generation and keeps the stored status (PrepareForUpdate)', async () => {
  const store = newStore();
  await store.create(ctx, deployment(1), write);
  await new StatusRest(store).update(
    ctx,
    'web',
    (cur) => ({ ...cur!, status: { replicas: 1 } }),
    write
  );
  const { object } = await store.update(
    ctx,
    'web',
    (cur) => ({ ...cur!, spec: { ...specOf(cur!), replicas: 3 }, status: { replicas: 99 } }),
    write
  );
  assert.equal(specOf(object).replicas, 3);
  assert.deepEqual(object['status'], { replicas: 1 }, 'status only through the subresource');
  assert.equal(object.metadata.generation, 2);
});

test('the status subresource ignores spec changes and keeps generation (deploymentStatusStrategy)', async () => {
  const store = newStore();
  await store.create(ctx, deployment(1), write);
  const { object } = await new StatusRest(store).update(
    ctx,
    'web',
    (cur) => ({
      ...cur!,
      metadata: { ...cur!.metadata, labels: { changed: 'yes' } },
      spec: { ...specOf(cur!), replicas: 7 },
      status: { replicas: 1, readyReplicas: 1 },
    }),
    write
  );
  assert.deepEqual(object['status'], { replicas: 1, readyReplicas: 1 });
  assert.equal(specOf(object).replicas, 1, 'spec as stored');
  assert.equal(object.metadata.labels, undefined, 'metadata as stored');
  assert.equal(object.metadata.generation, 1, 'no generation for a status write');
  assert.deepEqual((await store.get(ctx, 'web', latest))['status'], object['status']);
});

test('the status subresource never creates the object', async () => {
  const store = newStore();
  await assert.rejects(
    new StatusRest(store).update(ctx, 'web', () => deployment(1, { replicas: 1 }), write),
    (err: unknown) => err instanceof StatusError && err.code === 404
  );
});

test("apps/v1's selector is immutable (ValidateDeploymentUpdate)", async () => {
  const store = newStore();
  await store.create(ctx, deployment(1), write);
  await assert.rejects(
    store.update(
      ctx,
      'web',
      (cur) => ({
        ...cur!,
        spec: { ...specOf(cur!), selector: { matchLabels: { app: 'other' } } },
      }),
      write
    ),
    (err: unknown) =>
      err instanceof StatusError &&
      err.code === 422 &&
      err.status.details?.causes?.[0]?.field === 'spec.selector'
  );
});
