// The certificates service's registration file against the one list: it registers every plugin
// the list places in the certificates service and no other; each is built under its name and,
// as the list says, validates only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pluginSpec, pluginsPlacedIn } from '@orch/apimachinery/admission';
import { newCertificatePluginRegistry, newCertificatePlugins } from './plugins.js';

test('registration: every plugin the list places in the certificates service, and only those', () => {
  assert.deepEqual(newCertificatePluginRegistry().registered(), pluginsPlacedIn('certificates'));
});

test('registration: each plugin is built under its name, validating only', () => {
  const built = newCertificatePlugins({
    authorize: () => assert.fail('the plugins ask the authorizer on a write, not when built'),
  });
  assert.deepEqual([...built.keys()], pluginsPlacedIn('certificates'));
  for (const [name, plugin] of built) {
    assert.equal(plugin.name, name);
    assert.deepEqual(pluginSpec(name).roles, ['validating']);
    assert.equal((plugin as { admit?: unknown }).admit, undefined);
  }
});
