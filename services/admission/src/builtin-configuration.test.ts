// The built-in plugins' configurations through --admission-control-config-file as the service
// reads it at start (readAdmissionConfiguration, then newPlugins builds every plugin): a good
// file configures PodSecurity, EventRateLimit, PodNodeSelector and PodTolerationRestriction
// (inline and by path); a bad one stops the start with a message naming the plugin's field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  pluginConfigurations,
  readAdmissionConfiguration,
} from './admission-configuration/index.js';
import { pluginDeps, pod, recordingContext, request, namespace } from './plugin-test-kit.js';
import { builtinPluginFactories, newPlugins } from './plugins.js';

const dir = mkdtempSync(join(tmpdir(), 'orch-builtin-config-'));

async function start(files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const configs = pluginConfigurations(
    await readAdmissionConfiguration(
      join(dir, 'admission.yaml'),
      Object.keys(builtinPluginFactories)
    )
  );
  const { config: _none, ...shared } = pluginDeps({ namespaces: [namespace('ns')] });
  // ResourceQuota writes through the storage client, which these unit tests have none of; its
  // configuration has its own tests (resource-quota-configuration.test.ts).
  const { ResourceQuota: _writes, ...factories } = builtinPluginFactories;
  return newPlugins(factories, shared, configs);
}

test('configuration file: the built-in plugins configured inline and by path', async () => {
  const plugins = await start({
    'admission.yaml': `apiVersion: apiserver.config.orch.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  configuration:
    apiVersion: pod-security.admission.config.orch.io/v1
    kind: PodSecurityConfiguration
    defaults:
      enforce: baseline
    exemptions:
      usernames: [ops]
- name: EventRateLimit
  path: event-rate-limit.yaml
- name: PodNodeSelector
  configuration:
    podNodeSelectorPluginConfig:
      clusterDefaultNodeSelector: region=east
- name: PodTolerationRestriction
  configuration:
    apiVersion: podtolerationrestriction.admission.orch.io/v1alpha1
    kind: Configuration
    whitelist:
    - key: dedicated
      operator: Exists
`,
    'event-rate-limit.yaml': `apiVersion: eventratelimit.admission.orch.io/v1alpha1
kind: Configuration
limits:
- type: Namespace
  qps: 50
  burst: 100
  cacheSize: 2000
- type: User
  qps: 10
  burst: 50
`,
  });
  assert.ok(plugins.has('EventRateLimit'), 'EventRateLimit is built once configured');
  const hostNetwork = pod('h', { hostNetwork: true, containers: [{ name: 'c' }] });
  await assert.rejects(
    plugins.get('PodSecurity')!.validate!(
      request({ resource: 'pods', object: hostNetwork }),
      recordingContext()
    ),
    /violates PodSecurity "baseline:latest": host namespaces/
  );
  await plugins.get('PodSecurity')!.validate!(
    request({ resource: 'pods', object: hostNetwork, user: { name: 'ops' } }),
    recordingContext()
  );
  const req = request({ resource: 'pods', object: pod('p', { containers: [{ name: 'c' }] }) });
  await plugins.get('PodNodeSelector')!.admit!(req, recordingContext());
  assert.deepEqual((req.object as any).spec.nodeSelector, { region: 'east' });
});

test('configuration file: without an entry, EventRateLimit is not built (it needs one)', async () => {
  const plugins = await start({
    'admission.yaml': `apiVersion: apiserver.config.orch.io/v1
kind: AdmissionConfiguration
plugins: []
`,
  });
  assert.equal(plugins.has('EventRateLimit'), false);
  assert.ok(plugins.has('PodSecurity'));
});

const badRows: { name: string; entry: string; error: RegExp }[] = [
  {
    name: 'PodSecurity with an unknown level',
    entry: `- name: PodSecurity
  configuration:
    defaults:
      warn: strict`,
    error: /PodSecurity configuration: defaults\.warn: Unsupported value: "strict"/,
  },
  {
    name: 'EventRateLimit with a limit of no qps',
    entry: `- name: EventRateLimit
  configuration:
    limits:
    - type: Server
      burst: 10`,
    error: /EventRateLimit configuration: limits\[0\]\.qps: Invalid value: 0: must be positive/,
  },
  {
    name: 'PodNodeSelector with a bad selector',
    entry: `- name: PodNodeSelector
  configuration:
    podNodeSelectorPluginConfig:
      team-a: "env=="`,
    error:
      /PodNodeSelector configuration: podNodeSelectorPluginConfig\[team-a\]: Invalid value: "env=="/,
  },
  {
    name: 'PodTolerationRestriction with a bad effect',
    entry: `- name: PodTolerationRestriction
  configuration:
    default:
    - key: a
      effect: Sometimes`,
    error:
      /PodTolerationRestriction configuration: default\[0\]\.effect: Unsupported value: "Sometimes"/,
  },
];
for (const row of badRows) {
  test(`configuration file: ${row.name} stops the start, naming the field`, async () => {
    await assert.rejects(
      start({
        'admission.yaml': `apiVersion: apiserver.config.orch.io/v1
kind: AdmissionConfiguration
plugins:
${row.entry}
`,
      }),
      row.error
    );
  });
}
