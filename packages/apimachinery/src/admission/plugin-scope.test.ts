// The scopes of the admission service's plugins: one per plugin the list places there, and the
// decision the gateway and the service take from them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mayActOn, servicePluginScopes } from './plugin-scope.js';
import { pluginsPlacedIn } from './plugins.js';

test('scopes: exactly the plugins the list places in the admission service', () => {
  assert.deepEqual(
    Object.keys(servicePluginScopes).sort(),
    [...pluginsPlacedIn('admission')].sort()
  );
});

test('mayActOn: by the scope, with core resources bare and others group/resource', () => {
  const configmaps = { group: '', resource: 'configmaps' };
  assert.equal(mayActOn('LimitRanger', configmaps), false);
  assert.equal(mayActOn('LimitRanger', { group: '', resource: 'pods' }), true);
  assert.equal(mayActOn('PodSecurity', { group: 'apps', resource: 'deployments' }), true);
  assert.equal(mayActOn('PodSecurity', { group: 'apps', resource: 'pods' }), false);
  assert.equal(
    mayActOn('DefaultIngressClass', { group: 'networking.orch.io', resource: 'ingresses' }),
    true
  );
  assert.equal(mayActOn('AlwaysAdmit', { group: '', resource: 'pods' }), false);
  for (const name of [
    'AlwaysDeny',
    'NodeRestriction',
    'MutatingAdmissionWebhook',
    'ValidatingAdmissionPolicy',
    'ValidatingAdmissionWebhook',
    'ResourceQuota',
  ] as const) {
    assert.equal(mayActOn(name, configmaps), true, name);
  }
});
