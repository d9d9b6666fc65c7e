// The providers against the kinds apimachinery defines: every stored kind is served by its
// group's provider, every declared subresource has its REST object, and nothing is listed that
// no kind declares.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { restStorageProviders } from './rest-storage-providers.js';
import { storedResource, strategyOf } from './registry/rest-storage.js';

const providers = restStorageProviders();
const stored = builtinResources.filter((d) => !d.virtual);
const name = (d: ResourceDefinition) => `${d.group || 'core'}/${d.version}/${d.resource}`;
/** Served by REST objects built elsewhere: authentication holds the token issuer. */
const builtElsewhere = new Set(['core/v1/serviceaccounts/token']);
/** Operations served by authentication and authorization themselves. */
const reviewGroups = new Set(['authentication.orch.io', 'authorization.orch.io']);

test('each group has one provider', () => {
  const groups = providers.map((p) => p.groupName);
  assert.deepEqual(groups, [...new Set(groups)]);
});

test("every stored kind is served by its group's provider", () => {
  for (const def of stored) assert.doesNotThrow(() => storedResource(providers, def), name(def));
});

test('every declared subresource has its REST object, but those built elsewhere', () => {
  const missing = stored.flatMap((def) => {
    const builders = storedResource(providers, def).subresources ?? {};
    return (def.subresources ?? [])
      .filter((sub) => !builders[sub])
      .map((sub) => `${name(def)}/${sub}`)
      .filter((key) => !builtElsewhere.has(key));
  });
  assert.deepEqual(missing, []);
});

test('a strategy keeps status apart exactly when the kind declares a status subresource', () => {
  for (const def of stored) {
    const strategy = strategyOf(storedResource(providers, def), def);
    assert.equal(strategy.hasStatus, def.subresources?.includes('status') ?? false, name(def));
  }
});

test('providers list only kinds of their group, and subresources those kinds declare', () => {
  for (const provider of providers) {
    for (const [resource, storage] of Object.entries(provider.resources)) {
      const defs = builtinResources.filter(
        (d) => d.group === provider.groupName && d.resource === resource
      );
      const gr = `${provider.groupName || 'core'}/${resource}`;
      assert.ok(defs.length > 0, `${gr} is no kind`);
      for (const sub of Object.keys(storage.subresources ?? {}))
        assert.ok(
          defs.some((d) => d.subresources?.includes(sub)),
          `${gr}/${sub} is not declared`
        );
      assert.equal(storage.newRest !== undefined, defs[0]!.virtual === true, `${gr}: newRest`);
    }
  }
});

test('virtual kinds are served by their provider or by authentication and authorization', () => {
  const unserved = builtinResources
    .filter((d) => d.virtual && !reviewGroups.has(d.group))
    .filter((d) => !providers.find((p) => p.groupName === d.group)?.resources[d.resource]?.newRest)
    .map(name);
  assert.deepEqual(unserved, []);
});

test('a stored kind its provider does not list is refused when the Stores are built', () => {
  const def = { ...stored[0]!, resource: 'widgets' };
  assert.throws(() => storedResource(providers, def), /no REST storage for core\/widgets/);
});
