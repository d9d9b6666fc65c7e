// What the strategies' table tests share: the strategy a group's provider gives a resource
// (the one the gateway's Store writes with), the field errors it answers as
// `<field>: <type>[: <message>]`, and one named test per row.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiObject } from '@orch/apimachinery/meta';
import { builtinResources } from '@orch/apimachinery/registry';
import { storedResource, strategyOf } from './rest-storage.js';
import type { RestStorageProvider } from './rest-storage-provider.js';
import type { Strategy } from './strategy.js';

/** A create (no old object) or an update, and the field errors expected of it. */
export type StrategyRow = [
  name: string,
  resource: string,
  o: ApiObject,
  expected: string[],
  old?: ApiObject,
];

/** The strategy `provider` gives `resource` (in the first version apimachinery serves). */
export function providedStrategy(provider: RestStorageProvider, resource: string): Strategy {
  const def = builtinResources.find(
    (d) => d.group === provider.groupName && d.resource === resource
  );
  assert.ok(def, `${provider.groupName}/${resource}`);
  return strategyOf(storedResource([provider], def), def);
}

/** The field errors of a create (no `old`) or an update. */
export function fieldErrors(strategy: Strategy, o: ApiObject, old?: ApiObject): string[] {
  return (old ? strategy.validateUpdate(o, old) : strategy.validate(o)).map(
    (e) => `${e.field}: ${e.type}${e.message ? `: ${e.message}` : ''}`
  );
}

/**
 * One test per row, named `<resource> create|update: <name>`; `resource` is the row's
 * `<group>/<resource>` (core: `/<resource>`), its strategy the group provider's.
 */
export function testStrategyRows(
  provider: RestStorageProvider,
  rows: readonly StrategyRow[]
): void {
  for (const [name, resource, o, expected, old] of rows) {
    test(`${resource} ${old ? 'update' : 'create'}: ${name}`, () => {
      const strategy = providedStrategy(provider, resource.slice(resource.indexOf('/') + 1));
      assert.deepEqual(fieldErrors(strategy, o, old), expected);
    });
  }
}
