// The admission chain's order and denials, with small plugins of the test's own implementing
// the plugin interface (no in-gateway plugin can be registered from outside); and the admission
// flags of the gateway's options.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError, newForbidden } from '@orch/apimachinery/errors';
import { gatewayOptions } from '../options.js';
import { defaultOnPlugins, enabledPluginNames } from '@orch/apimachinery/admission';
import type { PluginName } from '@orch/apimachinery/admission';
import { AdmissionChain, newAdmissionChain } from './chain.js';
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
  /** Builds only the `enabled`; any other is a failure. */
  const only = (enabled: PluginName[]) => (name: string) =>
    enabled.includes(name as PluginName)
      ? recorder(name, log)
      : assert.fail(`a disabled plugin is built: ${name}`);
  const chain = newAdmissionChain(only(['RBACEscalationPrevention', 'NamespaceLifecycle']), [
    'RBACEscalationPrevention',
    'NamespaceLifecycle',
  ]);
  assert.deepEqual(
    chain.plugins.map((p) => p.name),
    ['NamespaceLifecycle', 'RBACEscalationPrevention']
  );
  const one = newAdmissionChain(only(['RBACEscalationPrevention']), ['RBACEscalationPrevention']);
  assert.deepEqual(
    one.plugins.map((p) => p.name),
    ['RBACEscalationPrevention']
  );
});

// Each run of consecutive enabled service plugins is one member: one call per phase.
function gatewayFactories(log: string[]) {
  return (name: string): AdmissionPlugin => recorder(name, log);
}
const runs: { name: string; enabled: PluginName[]; members: string[] }[] = [
  {
    name: 'the default set: the gateway plugins, then the service plugins in one call',
    enabled: [...defaultOnPlugins],
    members: [
      'NamespaceLifecycle',
      'RBACEscalationPrevention',
      'service:LimitRanger,ServiceAccount,TaintNodesByCondition,PodSecurity,Priority,DefaultTolerationSeconds,DefaultStorageClass,StorageObjectInUseProtection,PersistentVolumeClaimResize,RuntimeClass,DefaultIngressClass,MutatingAdmissionWebhook,ValidatingAdmissionPolicy,ValidatingAdmissionWebhook,ResourceQuota',
    ],
  },
  {
    name: 'the namespace plugins of the gateway split no run of service plugins',
    enabled: ['NamespaceAutoProvision', 'NamespaceExists', 'ServiceAccount', 'PodSecurity'],
    members: ['NamespaceAutoProvision', 'NamespaceExists', 'service:ServiceAccount,PodSecurity'],
  },
  {
    name: 'AlwaysAdmit before the gateway plugins is a run of its own',
    enabled: ['AlwaysDeny', 'NamespaceLifecycle', 'AlwaysAdmit', 'AlwaysPullImages'],
    members: ['service:AlwaysAdmit', 'NamespaceLifecycle', 'service:AlwaysPullImages,AlwaysDeny'],
  },
  {
    name: 'a gateway plugin disabled joins the runs on both sides',
    enabled: ['AlwaysAdmit', 'AlwaysPullImages', 'AlwaysDeny'],
    members: ['service:AlwaysAdmit,AlwaysPullImages,AlwaysDeny'],
  },
  {
    name: 'OwnerReferencesPermissionEnforcement splits the service plugins at upstream’s place',
    enabled: [...defaultOnPlugins, 'AlwaysPullImages', 'OwnerReferencesPermissionEnforcement'],
    members: [
      'NamespaceLifecycle',
      'RBACEscalationPrevention',
      'service:LimitRanger,ServiceAccount,TaintNodesByCondition,AlwaysPullImages,PodSecurity,Priority,DefaultTolerationSeconds,DefaultStorageClass,StorageObjectInUseProtection',
      'OwnerReferencesPermissionEnforcement',
      'service:PersistentVolumeClaimResize,RuntimeClass,DefaultIngressClass,MutatingAdmissionWebhook,ValidatingAdmissionPolicy,ValidatingAdmissionWebhook,ResourceQuota',
    ],
  },
  {
    name: 'no service plugin: no call',
    enabled: ['NamespaceLifecycle'],
    members: ['NamespaceLifecycle'],
  },
];
for (const row of runs) {
  test(`chain runs: ${row.name}`, () => {
    const log: string[] = [];
    const chain = newAdmissionChain(gatewayFactories(log), row.enabled, (names) => ({
      name: `service:${names.join(',')}`,
      handles: () => true,
    }));
    assert.deepEqual(
      chain.plugins.map((p) => p.name),
      row.members
    );
  });
}

// For writes of CertificateSigningRequests the certificates service's member stands where
// upstream puts the three Certificate plugins (after ImagePolicyWebhook, before the webhooks),
// naming the enabled ones, present even when none is (it also checks the PKCS#10 request of a
// create). Other writes go through the chain without it: their service runs stay one call.
const csrWrite = {
  resource: {
    group: 'certificates.orch.io',
    version: 'v1',
    resource: 'certificatesigningrequests',
  },
};
const configMapWrite = { resource: { group: '', version: 'v1', resource: 'configmaps' } };
const certificateRuns: {
  name: string;
  enabled: PluginName[];
  members: string[];
  others: string[];
}[] = [
  {
    name: 'the default set: between the gateway plugins and the webhooks',
    enabled: [...defaultOnPlugins],
    members: [
      'NamespaceLifecycle',
      'RBACEscalationPrevention',
      'service:LimitRanger,ServiceAccount,TaintNodesByCondition,PodSecurity,Priority,DefaultTolerationSeconds,DefaultStorageClass,StorageObjectInUseProtection,PersistentVolumeClaimResize,RuntimeClass',
      'certificates:CertificateApproval,CertificateSigning,CertificateSubjectRestriction',
      'service:DefaultIngressClass,MutatingAdmissionWebhook,ValidatingAdmissionPolicy,ValidatingAdmissionWebhook,ResourceQuota',
    ],
    others: [
      'NamespaceLifecycle',
      'RBACEscalationPrevention',
      'service:LimitRanger,ServiceAccount,TaintNodesByCondition,PodSecurity,Priority,DefaultTolerationSeconds,DefaultStorageClass,StorageObjectInUseProtection,PersistentVolumeClaimResize,RuntimeClass,DefaultIngressClass,MutatingAdmissionWebhook,ValidatingAdmissionPolicy,ValidatingAdmissionWebhook,ResourceQuota',
    ],
  },
  {
    name: 'it splits a run of service plugins around it, for CSR writes only',
    enabled: ['AlwaysPullImages', 'CertificateSigning', 'AlwaysDeny'],
    members: ['service:AlwaysPullImages', 'certificates:CertificateSigning', 'service:AlwaysDeny'],
    others: ['service:AlwaysPullImages,AlwaysDeny'],
  },
  {
    name: 'every certificate plugin off: the member stays, naming none',
    enabled: ['NamespaceLifecycle'],
    members: ['NamespaceLifecycle', 'certificates:'],
    others: ['NamespaceLifecycle'],
  },
];
for (const row of certificateRuns) {
  test(`chain with the certificates service: ${row.name}`, () => {
    const chain = newAdmissionChain(
      gatewayFactories([]),
      row.enabled,
      (names) => ({ name: `service:${names.join(',')}`, handles: () => true }),
      (names) => ({ name: `certificates:${names.join(',')}`, handles: () => true })
    );
    assert.deepEqual(
      chain.pluginsFor(csrWrite).map((p) => p.name),
      row.members
    );
    assert.deepEqual(
      chain.pluginsFor(configMapWrite).map((p) => p.name),
      row.others
    );
  });
}

test('chain: a service plugin enabled without the admission service fails the build', () => {
  assert.throws(
    () => newAdmissionChain(gatewayFactories([]), ['AlwaysPullImages']),
    /admission plugins AlwaysPullImages run in the admission service, and none is configured/
  );
});

const required = ['--tls-cert-file=c', '--tls-private-key-file=k', '--client-ca-file=ca'];
const noAuthorizer = [...required, '--authorization-mode=AlwaysAllow'];
const withService = [...noAuthorizer, '--admission-servers=127.0.0.1:6503'];

// The admission flags, row by row: what is enabled, in which order, or which error.
const flagRows: { name: string; args: string[]; plugins?: PluginName[]; error?: RegExp }[] = [
  {
    name: 'no flag: the default-on set',
    args: withService,
    plugins: [
      'NamespaceLifecycle',
      'RBACEscalationPrevention',
      'LimitRanger',
      'ServiceAccount',
      'TaintNodesByCondition',
      'PodSecurity',
      'Priority',
      'DefaultTolerationSeconds',
      'DefaultStorageClass',
      'StorageObjectInUseProtection',
      'PersistentVolumeClaimResize',
      'RuntimeClass',
      'CertificateApproval',
      'CertificateSigning',
      'CertificateSubjectRestriction',
      'DefaultIngressClass',
      'MutatingAdmissionWebhook',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionWebhook',
      'ResourceQuota',
    ],
  },
  {
    name: '--disable-admission-plugins turns one off',
    args: [...withService, '--disable-admission-plugins=NamespaceLifecycle'],
    plugins: [
      'RBACEscalationPrevention',
      'LimitRanger',
      'ServiceAccount',
      'TaintNodesByCondition',
      'PodSecurity',
      'Priority',
      'DefaultTolerationSeconds',
      'DefaultStorageClass',
      'StorageObjectInUseProtection',
      'PersistentVolumeClaimResize',
      'RuntimeClass',
      'CertificateApproval',
      'CertificateSigning',
      'CertificateSubjectRestriction',
      'DefaultIngressClass',
      'MutatingAdmissionWebhook',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionWebhook',
      'ResourceQuota',
    ],
  },
  {
    name: '--enable-admission-plugins adds, in the fixed order whatever the order given',
    args: [...withService, '--enable-admission-plugins=AlwaysDeny, AlwaysPullImages,AlwaysAdmit'],
    plugins: [
      'AlwaysAdmit',
      'NamespaceLifecycle',
      'RBACEscalationPrevention',
      'LimitRanger',
      'ServiceAccount',
      'TaintNodesByCondition',
      'AlwaysPullImages',
      'PodSecurity',
      'Priority',
      'DefaultTolerationSeconds',
      'DefaultStorageClass',
      'StorageObjectInUseProtection',
      'PersistentVolumeClaimResize',
      'RuntimeClass',
      'CertificateApproval',
      'CertificateSigning',
      'CertificateSubjectRestriction',
      'DefaultIngressClass',
      'MutatingAdmissionWebhook',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionWebhook',
      'ResourceQuota',
      'AlwaysDeny',
    ],
  },
  {
    name: 'every service plugin off: no --admission-servers needed',
    args: [
      ...noAuthorizer,
      '--disable-admission-plugins=LimitRanger,ServiceAccount,TaintNodesByCondition,PodSecurity,Priority,DefaultTolerationSeconds,DefaultStorageClass,StorageObjectInUseProtection,PersistentVolumeClaimResize,RuntimeClass,DefaultIngressClass,MutatingAdmissionWebhook,ValidatingAdmissionPolicy,ValidatingAdmissionWebhook,ResourceQuota',
    ],
    plugins: [
      'NamespaceLifecycle',
      'RBACEscalationPrevention',
      'CertificateApproval',
      'CertificateSigning',
      'CertificateSubjectRestriction',
    ],
  },
  {
    name: 'a service plugin on without --admission-servers stops the start',
    args: noAuthorizer,
    error:
      /admission plugins LimitRanger, ServiceAccount, TaintNodesByCondition, PodSecurity, Priority, DefaultTolerationSeconds, DefaultStorageClass, StorageObjectInUseProtection, PersistentVolumeClaimResize, RuntimeClass, DefaultIngressClass, MutatingAdmissionWebhook, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook, ResourceQuota run in the admission service: they need --admission-servers/,
  },
  {
    name: 'an unknown name stops the start, listing the known ones',
    args: [...withService, '--enable-admission-plugins=NamespaceLifecycel'],
    error:
      /--enable-admission-plugins: admission plugin "NamespaceLifecycel" is unknown \(known: AlwaysAdmit, NamespaceAutoProvision, NamespaceLifecycle, NamespaceExists, RBACEscalationPrevention, SecurityContextDeny, LimitPodHardAntiAffinityTopology, LimitRanger, ServiceAccount, NodeRestriction, TaintNodesByCondition, AlwaysPullImages, ImagePolicyWebhook, PodSecurity, PodNodeSelector, Priority, DefaultTolerationSeconds, PodTolerationRestriction, EventRateLimit, ExtendedResourceToleration, DefaultStorageClass, StorageObjectInUseProtection, OwnerReferencesPermissionEnforcement, PersistentVolumeClaimResize, RuntimeClass, CertificateApproval, CertificateSigning, CertificateSubjectRestriction, DefaultIngressClass, DenyServiceExternalIPs, MutatingAdmissionWebhook, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook, ResourceQuota, AlwaysDeny\)/,
  },
  {
    name: 'an unknown name to disable stops the start',
    args: [...withService, '--disable-admission-plugins=PodSecurityPolicy'],
    error: /--disable-admission-plugins: admission plugin "PodSecurityPolicy" is unknown/,
  },
  {
    name: 'a name both enabled and disabled stops the start',
    args: [
      ...withService,
      '--enable-admission-plugins=AlwaysDeny',
      '--disable-admission-plugins=AlwaysDeny',
    ],
    error: /AlwaysDeny in both --enable-admission-plugins and --disable-admission-plugins/,
  },
  {
    name: '--admission-control (deprecated, as upstream) turns on exactly the plugins named, in the fixed order',
    args: [...withService, '--admission-control=ServiceAccount, AlwaysAdmit,NamespaceLifecycle'],
    plugins: ['AlwaysAdmit', 'NamespaceLifecycle', 'ServiceAccount'],
  },
  {
    name: '--admission-control with --enable-admission-plugins stops the start with upstream message',
    args: [
      ...withService,
      '--admission-control=AlwaysAdmit',
      '--enable-admission-plugins=AlwaysDeny',
    ],
    error:
      /admission-control and enable-admission-plugins\/disable-admission-plugins flags are mutually exclusive/,
  },
];
for (const row of flagRows) {
  test(`admission flags: ${row.name}`, () => {
    if (row.error) {
      assert.throws(() => gatewayOptions(row.args), row.error);
    } else {
      assert.deepEqual(gatewayOptions(row.args).admissionPlugins, row.plugins);
    }
  });
}

test('admission flags: enabledPluginNames names a plugin in both lists', () => {
  assert.deepEqual(enabledPluginNames(['NamespaceLifecycle'], ['NamespaceLifecycle']).errors, [
    'NamespaceLifecycle in both --enable-admission-plugins and --disable-admission-plugins',
  ]);
});

test('spec, admission control, "Default-enabled plugins": the default-on set is the spec’s list (and our RBACEscalationPrevention)', () => {
  const spec = [
    'CertificateApproval',
    'CertificateSigning',
    'CertificateSubjectRestriction',
    'DefaultIngressClass',
    'DefaultStorageClass',
    'DefaultTolerationSeconds',
    'LimitRanger',
    'MutatingAdmissionWebhook',
    'NamespaceLifecycle',
    'PersistentVolumeClaimResize',
    'PodSecurity',
    'Priority',
    'ResourceQuota',
    'RuntimeClass',
    'ServiceAccount',
    'StorageObjectInUseProtection',
    'TaintNodesByCondition',
    'ValidatingAdmissionPolicy',
    'ValidatingAdmissionWebhook',
  ];
  assert.deepEqual(
    [...defaultOnPlugins].filter((n) => n !== 'RBACEscalationPrevention').sort(),
    spec
  );
});
