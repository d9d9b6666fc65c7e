// The create and update verb handlers over a Store on the in-memory storage, without a server
// (k8s apiserver/pkg/endpoints/handlers create.go and update.go, as their tests drive them
// with a fake storage): decode and defaults, field manager, mutating admission before the
// strategy and validating admission after it, dry run, and what a PUT answers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { ResourceRegistry, builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { MemoryStorage } from '@orch/testing/memory-storage';
import type { Attributes } from '@orch/apimachinery/auth';
import type { Admission, AdmissionAttributes } from '../admission/interfaces.js';
import { AuthorizerFunc } from '../authz/authorizer.js';
import { deploymentStrategy } from '../registry/apps/deployments/strategy.js';
import { configMapStrategy } from '../registry/core/configmaps/strategy.js';
import { Store } from '../registry/store.js';
import { createResource } from './create.js';
import { updateResource } from './update.js';
import { runHandler } from './verb-test-kit.js';

const registry = new ResourceRegistry(builtinResources);
const deployments = registry.lookup('apps', 'v1', 'deployments') as ResourceDefinition;
const configMaps = registry.lookup('', 'v1', 'configmaps') as ResourceDefinition;
const latest = { consistency: 'MOST_RECENT' } as const;

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

/** An admission chain that records each call and labels objects in its mutating phase. */
function recordingAdmission(): Admission & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    admit(a: AdmissionAttributes) {
      calls.push(`admit ${a.operation} dryRun=${a.dryRun} uid=${a.object?.metadata.uid ?? '-'}`);
      if (a.object) a.object.metadata.labels = { ...a.object.metadata.labels, admitted: 'yes' };
      return Promise.resolve();
    },
    validate(a: AdmissionAttributes) {
      const o = a.object as ApiObject;
      calls.push(
        `validate ${a.operation} uid=${o.metadata.uid ? 'set' : '-'} label=${o.metadata.labels?.['admitted'] ?? '-'}`
      );
      return Promise.resolve();
    },
  };
}

test('POST creates with the defaults, the field manager and both admission phases (k8s createHandler)', async () => {
  const store = new Store(deployments, deploymentStrategy, new MemoryStorage());
  const admission = recordingAdmission();
  const answer = await runHandler(createResource, {
    def: deployments,
    rest: store,
    method: 'POST',
    path: '/apis/apps/v1/namespaces/ns/deployments?fieldManager=tests',
    body: deployment,
    admission,
  });
  assert.equal(answer.code, 201);
  const created = answer.json<ApiObject>();
  const spec = created['spec'] as Record<string, unknown>;
  assert.equal(spec['replicas'], 1, 'SetDefaults_Deployment');
  assert.equal(spec['revisionHistoryLimit'], 10);
  assert.equal(spec['progressDeadlineSeconds'], 600);
  assert.equal((spec['strategy'] as { type?: string }).type, 'RollingUpdate');
  assert.equal(created.metadata.namespace, 'ns', 'namespace from the path');
  assert.equal(created.metadata.labels?.['admitted'], 'yes');
  const managers = (created.metadata.managedFields as { manager: string; operation: string }[]).map(
    (m) => `${m.manager} ${m.operation}`
  );
  assert.deepEqual(managers, ['tests Update']);
  assert.deepEqual(admission.calls, [
    'admit CREATE dryRun=false uid=-',
    'validate CREATE uid=set label=yes',
  ]);
  const stored = await store.get({ namespace: 'ns' }, 'web', latest);
  assert.equal(stored.metadata.resourceVersion, created.metadata.resourceVersion);
});

test('POST ?dryRun=All answers the object it would create and stores nothing', async () => {
  const storage = new MemoryStorage();
  const store = new Store(deployments, deploymentStrategy, storage);
  const admission = recordingAdmission();
  const answer = await runHandler(createResource, {
    def: deployments,
    rest: store,
    method: 'POST',
    path: '/apis/apps/v1/namespaces/ns/deployments?dryRun=All',
    body: deployment,
    admission,
  });
  assert.equal(answer.code, 201);
  assert.ok(answer.json<ApiObject>().metadata.uid);
  assert.equal(await storage.currentRevision(), 1, 'nothing written');
  assert.deepEqual(admission.calls, [
    'admit CREATE dryRun=true uid=-',
    'validate CREATE uid=set label=yes',
  ]);
});

test('POST with an unknown field under fieldValidation=Strict is 400 and stores nothing', async () => {
  const storage = new MemoryStorage();
  const store = new Store(deployments, deploymentStrategy, storage);
  await assert.rejects(
    runHandler(createResource, {
      def: deployments,
      rest: store,
      method: 'POST',
      path: '/apis/apps/v1/namespaces/ns/deployments?fieldValidation=Strict',
      body: { ...deployment, spec: { ...deployment.spec, bogus: 1 } },
    }),
    (err: unknown) =>
      err instanceof StatusError &&
      err.code === 400 &&
      err.message === 'strict decoding error: unknown field "spec.bogus"'
  );
  assert.equal(await storage.currentRevision(), 1);
});

test('PUT of a missing ConfigMap creates it (201), then replaces it (200) with its managedFields', async () => {
  const store = new Store(configMaps, configMapStrategy, new MemoryStorage());
  const path = '/api/v1/namespaces/ns/configmaps/cfg';
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { a: '1' } };
  const created = await runHandler(updateResource, {
    def: configMaps,
    rest: store,
    method: 'PUT',
    path,
    body,
  });
  assert.equal(created.code, 201);
  const replaced = await runHandler(updateResource, {
    def: configMaps,
    rest: store,
    method: 'PUT',
    path: `${path}?fieldManager=editor`,
    body: { ...body, data: { a: '2' } },
  });
  assert.equal(replaced.code, 200);
  const obj = replaced.json<ApiObject>();
  assert.deepEqual(obj['data'], { a: '2' });
  const owned = (obj.metadata.managedFields as { manager: string; fieldsV1: unknown }[]).map(
    (m) => `${m.manager} ${JSON.stringify(m.fieldsV1)}`
  );
  // The changed value moves to the manager that set it; the first keeps the map it made.
  assert.deepEqual(owned, ['editor {"f:data":{"f:a":{}}}', 'kit {"f:data":{}}']);
});

test('PUT with a stale resourceVersion is 409 Conflict with upstream message (k8s updateHandler)', async () => {
  const store = new Store(configMaps, configMapStrategy, new MemoryStorage());
  const path = '/api/v1/namespaces/ns/configmaps/cfg';
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { a: '1' } };
  const first = (
    await runHandler(createResource, {
      def: configMaps,
      rest: store,
      method: 'POST',
      path: '/api/v1/namespaces/ns/configmaps',
      body,
    })
  ).json<ApiObject>();
  const put = (data: Record<string, string>) =>
    runHandler(updateResource, {
      def: configMaps,
      rest: store,
      method: 'PUT',
      path,
      body: {
        ...body,
        metadata: { ...body.metadata, resourceVersion: first.metadata.resourceVersion },
        data,
      },
    });
  assert.equal((await put({ a: '2' })).code, 200);
  await assert.rejects(
    put({ a: '3' }),
    (err: unknown) =>
      err instanceof StatusError &&
      err.code === 409 &&
      err.message ===
        'Operation cannot be fulfilled on configmaps "cfg": the object has been modified; please apply your changes to the latest version and try again'
  );
});

test('PUT that creates is authorized for create too; once allowed to update, a missing create is 403 and stores nothing (k8s withAuthorization)', async () => {
  const storage = new MemoryStorage();
  const store = new Store(configMaps, configMapStrategy, storage);
  const asked: Attributes[] = [];
  const updateOnly = new AuthorizerFunc((a) => {
    asked.push(a);
    return a.verb === 'create'
      ? { decision: 'no-opinion', reason: 'no rule allows it' }
      : { decision: 'allow', reason: '' };
  });
  const path = '/api/v1/namespaces/ns/configmaps/cfg';
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { a: '1' } };
  const put = (query = '') =>
    runHandler(updateResource, {
      def: configMaps,
      rest: store,
      method: 'PUT',
      path: `${path}${query}`,
      body,
      authorizer: updateOnly,
    });
  const before = await storage.currentRevision();
  for (const query of ['', '?dryRun=All']) {
    await assert.rejects(
      put(query),
      (err: unknown) =>
        err instanceof StatusError &&
        err.code === 403 &&
        err.status.reason === 'Forbidden' &&
        err.message === 'configmaps "cfg" is forbidden: no rule allows it',
      `PUT${query}`
    );
  }
  assert.deepEqual(
    asked.map((a) => [a.verb, a.resource, a.namespace, a.name, a.isResourceRequest]),
    [
      ['create', 'configmaps', 'ns', 'cfg', true],
      ['create', 'configmaps', 'ns', 'cfg', true],
    ],
    'create asked once per request'
  );
  assert.equal(await storage.currentRevision(), before, 'nothing stored');
  await runHandler(createResource, {
    def: configMaps,
    rest: store,
    method: 'POST',
    path: '/api/v1/namespaces/ns/configmaps',
    body,
  });
  asked.length = 0;
  assert.equal((await put()).code, 200, 'replacing what exists needs update only');
  assert.deepEqual(asked, [], 'an update asks nothing more');
});
