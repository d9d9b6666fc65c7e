// The one list of admission plugins: the invariants of its order (upstream's rules for
// AllOrderedPlugins), its default set and its placements; the flags' derivation; the registry.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  admissionPlugins,
  allOrderedPlugins,
  defaultOffPlugins,
  defaultOnPlugins,
  deprecatedPlugins,
  enabledPluginNames,
  pluginSpec,
  pluginsPlacedIn,
  servedPluginsMismatch,
} from './plugins.js';
import type { PluginName } from './plugins.js';
import { Plugins } from './registry.js';

const index = (n: PluginName): number => allOrderedPlugins.indexOf(n);
const isMutating = (n: PluginName): boolean => pluginSpec(n).roles.includes('mutating');
const validatingOnly = (n: PluginName): boolean => !isMutating(n);

test('order: every name once', () => {
  assert.equal(new Set(allOrderedPlugins).size, allOrderedPlugins.length);
  assert.ok(allOrderedPlugins.length > 0);
});

test('order: AlwaysAdmit first; ResourceQuota then AlwaysDeny last (upstream: quota and deny at the end)', () => {
  assert.equal(allOrderedPlugins[0], 'AlwaysAdmit');
  assert.deepEqual(allOrderedPlugins.slice(-2), ['ResourceQuota', 'AlwaysDeny']);
});

test('order: the webhooks and policies just before ResourceQuota, the mutating webhook before the validating ones', () => {
  const tail = allOrderedPlugins.slice(-5, -2);
  assert.equal(tail[0], 'MutatingAdmissionWebhook');
  assert.deepEqual(
    [...tail.slice(1)].sort(),
    ['ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook'],
    'the validating policy and webhook follow the mutating webhook'
  );
});

test('order: mutating before validating: after the mutating webhook no plugin mutates (AlwaysDeny aside), so the validating webhooks, policies and quota see the final object', () => {
  const last = allOrderedPlugins
    .filter(isMutating)
    .filter((n) => n !== 'AlwaysDeny')
    .at(-1);
  assert.equal(last, 'MutatingAdmissionWebhook');
  for (const n of allOrderedPlugins.slice(index('MutatingAdmissionWebhook') + 1, -1)) {
    assert.ok(validatingOnly(n), `${n} runs after the mutating webhook but mutates`);
  }
});

test('order: NamespaceAutoProvision creates the namespace before NamespaceLifecycle and NamespaceExists look for it', () => {
  assert.ok(isMutating('NamespaceAutoProvision'));
  assert.ok(index('NamespaceAutoProvision') < index('NamespaceLifecycle'));
  assert.ok(index('NamespaceAutoProvision') < index('NamespaceExists'));
});

test('order: the certificate plugins are consecutive (one call to the certificates service)', () => {
  const at = pluginsPlacedIn('certificates').map(index);
  assert.ok(at.length > 0);
  assert.deepEqual(
    at,
    at.map((_, i) => at[0]! + i)
  );
});

test('placement: every name in exactly one of gateway, admission service, certificates service', () => {
  const placed = [
    ...pluginsPlacedIn('gateway'),
    ...pluginsPlacedIn('admission'),
    ...pluginsPlacedIn('certificates'),
  ];
  assert.deepEqual([...placed].sort(), [...allOrderedPlugins].sort());
  for (const p of admissionPlugins) {
    assert.ok(['gateway', 'admission', 'certificates'].includes(p.placement), p.name);
    assert.ok(p.roles.length > 0, `${p.name} takes part in no phase`);
  }
});

test('defaults: the default-on set is a subset of the order, in its order; on and off partition it', () => {
  const order = new Set<string>(allOrderedPlugins);
  for (const n of defaultOnPlugins) assert.ok(order.has(n), n);
  assert.deepEqual(
    defaultOnPlugins,
    allOrderedPlugins.filter((n) => defaultOnPlugins.includes(n))
  );
  assert.deepEqual(
    [...defaultOnPlugins, ...defaultOffPlugins].sort(),
    [...allOrderedPlugins].sort()
  );
  assert.equal(defaultOnPlugins.filter((n) => defaultOffPlugins.includes(n)).length, 0);
});

test('defaults: upstream’s deprecated plugins are off', () => {
  const deprecated = deprecatedPlugins(allOrderedPlugins);
  assert.ok(deprecated.length > 0);
  for (const n of deprecated) assert.ok(defaultOffPlugins.includes(n), n);
});

test('flags: the enabled set is the defaults plus the enabled minus the disabled, in the order of the list', () => {
  const off = defaultOffPlugins[0]!;
  const on = defaultOnPlugins[0]!;
  const { names, errors } = enabledPluginNames([off], [on]);
  assert.deepEqual(errors, []);
  assert.deepEqual(
    names,
    allOrderedPlugins.filter((n) => (defaultOnPlugins.includes(n) || n === off) && n !== on)
  );
  assert.deepEqual(enabledPluginNames([], []).names, defaultOnPlugins);
});

test('flags: an unknown plugin is an error naming it', () => {
  const { errors } = enabledPluginNames(['NoSuchPlugin'], []);
  assert.equal(errors.length, 1);
  assert.match(
    errors[0]!,
    /--enable-admission-plugins: admission plugin "NoSuchPlugin" is unknown/
  );
});

test('served plugins: missing are enabled ones placed there and not served; extra are served ones not placed there', () => {
  const service = pluginsPlacedIn('admission');
  const gateway = pluginsPlacedIn('gateway');
  const enabled = [...defaultOnPlugins];
  assert.deepEqual(servedPluginsMismatch('admission', enabled, service), {
    missing: [],
    extra: [],
  });
  const dropped = service.find((n) => enabled.includes(n))!;
  assert.deepEqual(
    servedPluginsMismatch(
      'admission',
      enabled,
      service.filter((n) => n !== dropped)
    ),
    { missing: [dropped], extra: [] }
  );
  // A plugin the gateway has not enabled may be missing from the service.
  const off = service.find((n) => !enabled.includes(n))!;
  assert.deepEqual(
    servedPluginsMismatch(
      'admission',
      enabled,
      service.filter((n) => n !== off)
    ),
    { missing: [], extra: [] }
  );
  assert.deepEqual(
    servedPluginsMismatch('admission', enabled, [...service, gateway[0]!, 'Newer']),
    { missing: [], extra: [gateway[0]!, 'Newer'] }
  );
});

test('registry: registered names in the order of the list; a name placed elsewhere or registered twice throws', () => {
  const plugins = new Plugins<'admission', () => string>('admission');
  const [a, b] = pluginsPlacedIn('admission');
  plugins.register(b!, () => 'b', { needsConfiguration: true });
  plugins.register(a!, () => 'a');
  assert.deepEqual(plugins.registered(), [a, b]);
  assert.equal(plugins.factory(a!)?.(), 'a');
  assert.equal(plugins.needsConfiguration(b!), true);
  assert.equal(plugins.needsConfiguration(a!), false);
  assert.throws(() => plugins.register(a!, () => 'again'), /registered twice/);
  const gatewayPlugin = pluginsPlacedIn('gateway')[0]!;
  assert.throws(
    () => plugins.register(gatewayPlugin as never, () => 'x'),
    new RegExp(`${gatewayPlugin} registered in the admission, but it runs in the gateway`)
  );
  assert.throws(
    () => plugins.register('NoSuchPlugin' as never, () => 'x'),
    /is not in the list of admission plugins/
  );
});
