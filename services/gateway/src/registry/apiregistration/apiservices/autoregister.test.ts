// The local APIServices created at start, on an in-memory storage.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ResourceRegistry, builtinResources } from '@orch/apimachinery/registry';
import { createLogger } from '@orch/component-base/logs';
import { MemoryStorage } from '@orch/testing/memory-storage';
import { enabledResources } from '../../../resourceconfig/resource-config.js';
import { Store } from '../../store.js';
import { ensureLocalAPIServices, localAPIServices } from './autoregister.js';
import { apiServiceStrategy, validateAPIService } from './strategy.js';

const registry = new ResourceRegistry(enabledResources(builtinResources, ''));
const def = registry.lookup('apiregistration.orch.io', 'v1', 'apiservices')!;
const log = createLogger('autoregister-test', 'error');
type Json = Record<string, any>;
const latest = { consistency: 'MOST_RECENT' } as const;

test('one local APIService per served built-in group version upstream registers, valid, with its priorities', () => {
  const objects = localAPIServices(registry);
  const names = objects.map((o) => o.metadata.name);
  assert.ok(names.includes('v1.'), 'the core group');
  for (const n of [
    'v1.apps',
    'v2.autoscaling',
    'v1.rbac.authorization.orch.io',
    'v1.flowcontrol.apiserver.orch.io',
  ])
    assert.ok(names.includes(n), n);
  // Neither the aggregator's own group nor a version it does not serve.
  assert.ok(!names.some((n) => n?.endsWith('apiregistration.orch.io')));
  assert.ok(!names.includes('v1beta1.storage.orch.io'));
  assert.equal(new Set(names).size, names.length);
  for (const o of objects) assert.deepEqual(validateAPIService(o), [], o.metadata.name);
  const apps = objects.find((o) => o.metadata.name === 'v1.apps')!;
  assert.deepEqual(apps['spec'], {
    group: 'apps',
    version: 'v1',
    groupPriorityMinimum: 17800,
    versionPriority: 15,
  });
  assert.deepEqual(apps.metadata.labels, {
    'kube-aggregator.kubernetes.io/automanaged': 'onstart',
  });
});

test('created and marked Available (Local); run again it changes nothing; a service of its own is left alone', async () => {
  const store = new Store(def, apiServiceStrategy, new MemoryStorage());
  // A user's APIService that holds a built-in name with a service: never marked Local.
  await store.create(
    {},
    {
      apiVersion: 'apiregistration.orch.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.coordination.orch.io' },
      spec: {
        group: 'coordination.orch.io',
        version: 'v1',
        service: { namespace: 'ns', name: 'svc', port: 443 },
        insecureSkipTLSVerify: true,
        groupPriorityMinimum: 100,
        versionPriority: 10,
      },
    },
    { dryRun: false }
  );
  assert.equal(await ensureLocalAPIServices(store, registry, log), true);
  const apps = (await store.get({}, 'v1.apps', latest)) as Json;
  const [cond, ...rest] = apps['status'].conditions;
  assert.deepEqual(rest, []);
  assert.match(cond.lastTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.deepEqual(
    { ...cond, lastTransitionTime: 'x' },
    {
      type: 'Available',
      status: 'True',
      lastTransitionTime: 'x',
      reason: 'Local',
      message: 'Local APIServices are always available',
    }
  );
  const coordination = (await store.get({}, 'v1.coordination.orch.io', latest)) as Json;
  assert.deepEqual(coordination['status'], {});
  const rv = apps['metadata'].resourceVersion;
  assert.equal(await ensureLocalAPIServices(store, registry, log), true);
  assert.equal(((await store.get({}, 'v1.apps', latest)) as Json)['metadata'].resourceVersion, rv);
  const all = await store.list({}, latest);
  assert.equal(all.items.length, localAPIServices(registry).length);
});
