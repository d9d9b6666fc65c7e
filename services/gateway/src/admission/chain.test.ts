// The admission chain's order and denials, with small plugins of the test's own implementing
// the plugin interface (no in-gateway plugin can be registered from outside); and the admission
// flags of the gateway's options.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError, newForbidden } from '@orch/apimachinery/errors';
import { gatewayOptions } from '../options.js';
import { AdmissionChain, enabledPluginNames, newAdmissionChain } from './chain.js';
import { operationOptions } from './interfaces.js';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from './interfaces.js';

const isForbidden = (e: unknown): boolean =>
  e instanceof StatusError && e.status.reason === 'Forbidden';

const attrs = (operation: Operation = 'CREATE'): AdmissionAttributes => ({
  operation,
  kind: { group: '', version: 'v1', kind: 'ConfigMap' },
  resource: { group: '', version: 'v1', resource: 'configmaps' },
  subresource: '',
  namespace: 'ns',
  name: 'cm',
  user: undefined,
  dryRun: false,
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' } },
  oldObject: undefined,
  options: operationOptions(operation, false),
});

/** A plugin that records its calls in `log`, and denies in the phase `deny` names. */
function recorder(
  name: string,
  log: string[],
  opts: { ops?: Operation[]; deny?: 'admit' | 'validate'; mutating?: boolean } = {}
): AdmissionPlugin {
  const gr = { group: '', resource: 'configmaps' };
  const plugin: AdmissionPlugin = {
    name,
    handles: (op) => (opts.ops ?? ['CREATE', 'UPDATE', 'DELETE']).includes(op),
    validate: async (a) => {
      log.push(`${name}.validate:${a.object?.metadata.labels?.['by'] ?? ''}`);
      if (opts.deny === 'validate') throw newForbidden(gr, a.name, `${name} says no`);
    },
  };
  if (opts.mutating !== false) {
    plugin.admit = async (a) => {
      log.push(`${name}.admit`);
      if (opts.deny === 'admit') throw newForbidden(gr, a.name, `${name} says no`);
      const meta = a.object!.metadata;
      meta.labels = { ...meta.labels, by: `${meta.labels?.['by'] ?? ''}${name}` };
    };
  }
  return plugin;
}

test('chain: every admit in order, then every validate in order, seeing the mutated object', async () => {
  const log: string[] = [];
  const chain = new AdmissionChain([recorder('a', log), recorder('b', log)]);
  const a = attrs();
  await chain.admit(a);
  await chain.validate(a);
  assert.deepEqual(log, ['a.admit', 'b.admit', 'a.validate:ab', 'b.validate:ab']);
  assert.equal(a.object?.metadata.labels?.['by'], 'ab', 'admit changes the object in place');
});

test('chain: a denial fails at once; later plugins do not run', async () => {
  const log: string[] = [];
  const chain = new AdmissionChain([recorder('a', log, { deny: 'admit' }), recorder('b', log)]);
  await assert.rejects(chain.admit(attrs()), (e) => isForbidden(e) && /a says no/.test(String(e)));
  assert.deepEqual(log, ['a.admit']);

  const log2: string[] = [];
  const chain2 = new AdmissionChain([
    recorder('a', log2, { deny: 'validate' }),
    recorder('b', log2),
  ]);
  const a = attrs();
  await chain2.admit(a);
  await assert.rejects(chain2.validate(a), (e) => isForbidden(e));
  assert.deepEqual(log2, ['a.admit', 'b.admit', 'a.validate:ab']);
});

test('chain: handles() is respected, and a validating-only plugin has no admit', async () => {
  const log: string[] = [];
  const chain = new AdmissionChain([
    recorder('create-only', log, { ops: ['CREATE'] }),
    recorder('validating', log, { mutating: false }),
  ]);
  assert.equal(chain.handles('DELETE'), true);
  assert.equal(chain.handles('CONNECT'), false);
  const a = attrs('DELETE');
  await chain.admit(a);
  await chain.validate(a);
  assert.deepEqual(log, ['validating.validate:']);
});

test('chain: built in the fixed order whatever the order of the enabled names', async () => {
  const log: string[] = [];
  const chain = newAdmissionChain(
    {
      NamespaceLifecycle: () => recorder('NamespaceLifecycle', log),
      RBACEscalationPrevention: () => recorder('RBACEscalationPrevention', log),
    },
    ['RBACEscalationPrevention', 'NamespaceLifecycle']
  );
  assert.deepEqual(
    chain.plugins.map((p) => p.name),
    ['NamespaceLifecycle', 'RBACEscalationPrevention']
  );
  const only = newAdmissionChain(
    {
      NamespaceLifecycle: () => assert.fail('a disabled plugin is not built'),
      RBACEscalationPrevention: () => recorder('RBACEscalationPrevention', log),
    },
    ['RBACEscalationPrevention']
  );
  assert.deepEqual(
    only.plugins.map((p) => p.name),
    ['RBACEscalationPrevention']
  );
});

const required = ['--tls-cert-file=c', '--tls-private-key-file=k', '--client-ca-file=ca'];
const noAuthorizer = [...required, '--authorization-mode=AlwaysAllow'];

test('admission flags: all plugins on by default, --disable-admission-plugins turns one off', () => {
  assert.deepEqual(gatewayOptions(noAuthorizer).admissionPlugins, [
    'NamespaceLifecycle',
    'RBACEscalationPrevention',
  ]);
  const o = gatewayOptions([...noAuthorizer, '--disable-admission-plugins=NamespaceLifecycle']);
  assert.deepEqual(o.admissionPlugins, ['RBACEscalationPrevention']);
  const both = gatewayOptions([
    ...noAuthorizer,
    '--enable-admission-plugins=RBACEscalationPrevention, NamespaceLifecycle',
  ]);
  assert.deepEqual(both.admissionPlugins, ['NamespaceLifecycle', 'RBACEscalationPrevention']);
});

test('admission flags: an unknown plugin name, or one both enabled and disabled, fails validation', () => {
  assert.throws(
    () => gatewayOptions([...noAuthorizer, '--enable-admission-plugins=NamespaceLifecycel']),
    /--enable-admission-plugins: admission plugin "NamespaceLifecycel" is unknown \(known: NamespaceLifecycle, RBACEscalationPrevention\)/
  );
  assert.throws(
    () => gatewayOptions([...noAuthorizer, '--disable-admission-plugins=AlwaysPullImages']),
    /--disable-admission-plugins: admission plugin "AlwaysPullImages" is unknown/
  );
  assert.deepEqual(enabledPluginNames(['NamespaceLifecycle'], ['NamespaceLifecycle']).errors, [
    'NamespaceLifecycle in both --enable-admission-plugins and --disable-admission-plugins',
  ]);
});
