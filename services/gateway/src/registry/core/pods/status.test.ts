// The pod status subresource (k8s podStatusStrategy) through the generic Store over the
// in-memory storage: a status write that leaves qosClass out keeps the one set on create.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiObject } from '@orch/apimachinery/meta';
import { ResourceRegistry, builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { MemoryStorage } from '@orch/testing/memory-storage';
import { StatusRest } from '../../status-rest.js';
import { Store } from '../../store.js';
import { podStatusStrategy, podStrategy } from './strategy.js';

const def = new ResourceRegistry(builtinResources).lookup('', 'v1', 'pods') as ResourceDefinition;
const ctx = { namespace: 'ns' };
const write = { dryRun: false };

const pod = (status?: Record<string, unknown>): ApiObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns' },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
    ...(status ? { status } : {}),
  }) as ApiObject;

for (const [name, sent, want] of [
  ['a status without qosClass keeps it', { phase: 'Running' }, { phase: 'Running' }],
  ['no status at all keeps it', undefined, {}],
  ['a qosClass sent is written', { phase: 'Running', qosClass: 'Burstable' }, { phase: 'Running' }],
] as const) {
  test(`pods/status: ${name} (podStatusStrategy)`, async () => {
    const store = new Store(def, podStrategy, new MemoryStorage());
    await store.create(ctx, pod(), write);
    const rest = new StatusRest(store, podStatusStrategy(podStrategy));
    const { object } = await rest.update(ctx, 'p', () => Promise.resolve(pod(sent)), write);
    const qosClass = sent && 'qosClass' in sent ? sent.qosClass : 'BestEffort';
    assert.deepEqual(object['status'], { ...want, qosClass });
  });
}
