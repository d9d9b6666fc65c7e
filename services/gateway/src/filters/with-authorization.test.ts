// The authorization stage without a server, in front of the resource routes over the in-memory
// storage: a dry run is authorized exactly as the request it rehearses (spec, Dry run:
// "Authorization equals the non-dry-run request"), so the authorizer (RBAC, a
// SubjectAccessReview webhook) sees the same attributes and a user refused the write is refused
// its dry run with the same Status.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Attributes } from '@orch/apimachinery/auth';
import { ResourceRegistry, builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { MemoryStorage } from '@orch/testing/memory-storage';
import { AuthorizerFunc } from '../authz/authorizer.js';
import { resourceHandler } from '../endpoints/installer.js';
import { serveRequest } from '../handlers/verb-test-kit.js';
import { configMapStrategy } from '../registry/core/configmaps/strategy.js';
import { restKey } from '../registry/rest.js';
import { Store } from '../registry/store.js';
import { withAuthorization } from './with-authorization.js';

const registry = new ResourceRegistry(builtinResources);
const configMaps = registry.lookup('', 'v1', 'configmaps') as ResourceDefinition;
const base = '/api/v1/namespaces/ns/configmaps';
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });

/** The routes behind authorization; `allowed` are the verbs the user may use on configmaps. */
function chain(allowed: readonly string[]) {
  const asked: Attributes[] = [];
  const authorizer = new AuthorizerFunc((a) => {
    asked.push(a);
    return allowed.includes(a.verb)
      ? { decision: 'allow', reason: '' }
      : { decision: 'no-opinion', reason: '' };
  });
  const storage = new MemoryStorage();
  const rest = new Map([[restKey(configMaps), new Store(configMaps, configMapStrategy, storage)]]);
  const routes = resourceHandler({ registry, rest, maxWatchSeconds: 60 });
  const handler = withAuthorization(routes, authorizer);
  return {
    asked,
    storage,
    call: (method: string, path: string, body?: unknown) =>
      serveRequest(handler, { method, path, ...(body === undefined ? {} : { body }) }),
  };
}

const writes: [string, string, string, unknown][] = [
  ['create', 'POST', base, cm('x')],
  ['update', 'PUT', `${base}/x`, cm('x')],
  ['patch', 'PATCH', `${base}/x`, { data: { a: '1' } }],
  ['delete', 'DELETE', `${base}/x`, undefined],
  ['deletecollection', 'DELETE', base, undefined],
];

for (const [verb, method, path, body] of writes) {
  test(`Dry run: "Authorization equals the non-dry-run request": a user refused ${verb} is refused its dry run, with the same attributes and Status`, async () => {
    const { call, asked, storage } = chain(['get', 'list']);
    const sep = path.includes('?') ? '&' : '?';
    const start = await storage.currentRevision();
    const real = await call(method, path, body);
    const dry = await call(method, `${path}${sep}dryRun=All`, body);
    assert.equal(real.code, 403);
    assert.equal(dry.code, 403);
    assert.equal(dry.body.toString(), real.body.toString());
    assert.match(
      dry.json<{ message: string }>().message,
      new RegExp(
        `User "tester" cannot ${verb} resource "configmaps" in API group "" in the namespace "ns"`
      )
    );
    assert.equal(asked.length, 2);
    const [a, b] = asked as [Attributes, Attributes];
    assert.deepEqual(b, a, 'the authorizer is asked the same question');
    assert.equal(a.verb, verb);
    assert.equal(await storage.currentRevision(), start, 'nothing written');
  });
}

test('Dry run: a user allowed create gets the dry run answered (201) and nothing stored', async () => {
  const { call, asked, storage } = chain(['create']);
  const start = await storage.currentRevision();
  const dry = await call('POST', `${base}?dryRun=All`, cm('y'));
  assert.equal(dry.code, 201, dry.body.toString());
  assert.equal(asked[0]?.verb, 'create');
  assert.equal(await storage.currentRevision(), start);
});
