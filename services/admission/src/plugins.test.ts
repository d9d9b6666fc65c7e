// The service's registration file against the one list: it registers every plugin the list
// places in the admission service and no other; each plugin is built under its registered name
// and takes part in the phases the list says (admit: mutating, validate: validating).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pluginSpec, pluginsPlacedIn } from '@orch/apimachinery/admission';
import { pluginDeps, namespace } from './plugin-test-kit.js';
import { newPlugins, newServicePlugins, pluginsNeedingConfiguration } from './plugins.js';
import type { PluginFactories } from './plugins.js';

test('registration: every plugin the list places in the admission service, and only those', () => {
  assert.deepEqual(newServicePlugins().registered(), pluginsPlacedIn('admission'));
});

test('registration: each plugin is built under its name, in the phases the list gives it', () => {
  const registry = newServicePlugins();
  const { config: _none, ...shared } = pluginDeps({ namespaces: [namespace('ns')] });
  const factories: PluginFactories = {};
  for (const name of registry.registered()) {
    // ResourceQuota writes through the storage client, which this unit test has none of.
    if (name !== 'ResourceQuota') factories[name] = registry.factory(name);
  }
  const built = newPlugins(factories, shared, new Map());
  const needingConfiguration = [...pluginsNeedingConfiguration];
  assert.deepEqual(
    [...built.keys()].sort(),
    Object.keys(factories)
      .filter((n) => !needingConfiguration.includes(n))
      .sort()
  );
  for (const [name, plugin] of built) {
    const roles = pluginSpec(plugin.name).roles;
    assert.equal(plugin.name, name);
    assert.equal(plugin.admit !== undefined, roles.includes('mutating'), `${name} admit`);
    assert.equal(plugin.validate !== undefined, roles.includes('validating'), `${name} validate`);
  }
});
