// Tests of the --admission-control-config-file reader, with real files in a temporary directory.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import {
  AdmissionConfigurationError,
  pluginConfigurations,
  readAdmissionConfiguration,
} from './admission-configuration.js';

const known = ['ImagePolicyWebhook', 'ValidatingAdmissionWebhook', 'MutatingAdmissionWebhook'];
let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-admission-config-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

async function rejects(file: string, ...parts: string[]): Promise<void> {
  await assert.rejects(readAdmissionConfiguration(file, known), (err: unknown) => {
    assert.ok(err instanceof AdmissionConfigurationError, String(err));
    assert.ok(err.message.includes(file), `names the file: ${err.message}`);
    for (const p of parts) assert.ok(err.message.includes(p), `"${p}" in: ${err.message}`);
    return true;
  });
}

describe('AdmissionConfiguration', () => {
  it('inline configuration, YAML', async () => {
    const file = await write(
      'inline.yaml',
      `apiVersion: apiserver.config.orch.io/v1
kind: AdmissionConfiguration
plugins:
- name: ImagePolicyWebhook
  configuration:
    imagePolicy:
      kubeConfigFile: /etc/orch/backend.kubeconfig
      allowTTL: 50
      denyTTL: 50
      retryBackoff: 500
      defaultAllow: true
`
    );
    const got = pluginConfigurations(await readAdmissionConfiguration(file, known));
    assert.deepEqual([...got.keys()], ['ImagePolicyWebhook']);
    assert.deepEqual(got.get('ImagePolicyWebhook'), {
      imagePolicy: {
        kubeConfigFile: '/etc/orch/backend.kubeconfig',
        allowTTL: 50,
        denyTTL: 50,
        retryBackoff: 500,
        defaultAllow: true,
      },
    });
  });

  it('JSON form, path relative to the file directory, YAML and JSON plugin files', async () => {
    await mkdir(join(dir, 'sub', 'plugins'), { recursive: true });
    await writeFile(
      join(dir, 'sub', 'plugins', 'image.yaml'),
      'imagePolicy:\n  kubeConfigFile: k.yaml\n  defaultAllow: false\n'
    );
    await writeFile(
      join(dir, 'sub', 'plugins', 'webhook.json'),
      JSON.stringify({ kubeConfigFile: '/x' })
    );
    const file = join(dir, 'sub', 'admission.json');
    await writeFile(
      file,
      JSON.stringify({
        apiVersion: 'apiserver.config.orch.io/v1',
        kind: 'AdmissionConfiguration',
        plugins: [
          { name: 'ImagePolicyWebhook', path: 'plugins/image.yaml' },
          { name: 'ValidatingAdmissionWebhook', path: join(dir, 'sub', 'plugins', 'webhook.json') },
        ],
      })
    );
    const entries = await readAdmissionConfiguration(file, known);
    assert.equal(
      entries.get('ImagePolicyWebhook')?.path,
      join(dir, 'sub', 'plugins', 'image.yaml')
    );
    const got = pluginConfigurations(entries);
    assert.deepEqual(got.get('ImagePolicyWebhook'), {
      imagePolicy: { kubeConfigFile: 'k.yaml', defaultAllow: false },
    });
    assert.deepEqual(got.get('ValidatingAdmissionWebhook'), { kubeConfigFile: '/x' });
  });

  it('an entry with neither path nor configuration is the plugin with no configuration (upstream)', async () => {
    const file = await write(
      'neither.yaml',
      'apiVersion: apiserver.config.orch.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: MutatingAdmissionWebhook\n'
    );
    const got = pluginConfigurations(await readAdmissionConfiguration(file, known));
    assert.ok(got.has('MutatingAdmissionWebhook'));
    assert.equal(got.get('MutatingAdmissionWebhook'), undefined);
  });

  it('no plugins: an empty map', async () => {
    const file = await write(
      'empty.yaml',
      'apiVersion: apiserver.config.orch.io/v1\nkind: AdmissionConfiguration\n'
    );
    assert.equal((await readAdmissionConfiguration(file, known)).size, 0);
  });

  const header = 'apiVersion: apiserver.config.orch.io/v1\nkind: AdmissionConfiguration\n';
  const bad: [string, string, string[]][] = [
    [
      'wrong apiVersion',
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\n',
      [
        'apiVersion: Unsupported value: "apiserver.config.k8s.io/v1"',
        'apiserver.config.orch.io/v1',
      ],
    ],
    ['missing apiVersion', 'kind: AdmissionConfiguration\n', ['apiVersion: Required value']],
    [
      'wrong kind',
      'apiVersion: apiserver.config.orch.io/v1\nkind: Configuration\n',
      ['kind: Unsupported value: "Configuration"'],
    ],
    ['missing kind', 'apiVersion: apiserver.config.orch.io/v1\n', ['kind: Required value']],
    ['unknown top-level field', `${header}plugin: []\n`, ['plugin: Forbidden: unknown field']],
    [
      'plugins not a list',
      `${header}plugins: {name: x}\n`,
      ['plugins: Invalid value', 'must be a list'],
    ],
    [
      'missing name',
      `${header}plugins:\n- configuration: {a: 1}\n`,
      ['plugins[0].name: Required value'],
    ],
    ['name not a string', `${header}plugins:\n- name: 3\n`, ['plugins[0].name: Invalid value: 3']],
    [
      'duplicate names',
      `${header}plugins:\n- name: ImagePolicyWebhook\n  configuration: {}\n- name: ImagePolicyWebhook\n  path: x.yaml\n`,
      ['plugins[1].name: Duplicate value: "ImagePolicyWebhook"'],
    ],
    [
      'unknown plugin name',
      `${header}plugins:\n- name: ImagePolicyWebhok\n`,
      ['plugins[0].name: Unsupported value: "ImagePolicyWebhok"', '"ImagePolicyWebhook"'],
    ],
    [
      'both path and configuration',
      `${header}plugins:\n- name: ImagePolicyWebhook\n  path: x.yaml\n  configuration: {imagePolicy: {}}\n`,
      ['plugins[0].path: Forbidden: may not be set together with configuration'],
    ],
    [
      'unknown entry field',
      `${header}plugins:\n- name: ImagePolicyWebhook\n  configration: {}\n`,
      ['plugins[0].configration: Forbidden: unknown field'],
    ],
    [
      'configuration not an object',
      `${header}plugins:\n- name: ImagePolicyWebhook\n  configuration: text\n`,
      ['plugins[0].configuration: Invalid value: "text"'],
    ],
    [
      'path file missing',
      `${header}plugins:\n- name: ImagePolicyWebhook\n  path: missing.yaml\n`,
      ['plugins[0].path: Invalid value', 'missing.yaml', 'cannot read', 'ENOENT'],
    ],
    ['not YAML', 'plugins: [\n', ['not valid YAML or JSON']],
    ['not an object', '- a\n- b\n', ['expected an AdmissionConfiguration object']],
  ];
  for (const [name, text, parts] of bad) {
    it(`rejects: ${name}`, async () => {
      await rejects(await write(`bad-${name.replace(/\W+/g, '-')}.yaml`, text), ...parts);
    });
  }

  it('rejects: path file that is not YAML, naming both files', async () => {
    await write('garbage-plugin.yaml', 'imagePolicy: [\n');
    const file = await write(
      'garbage-ref.yaml',
      `${header}plugins:\n- name: ImagePolicyWebhook\n  path: garbage-plugin.yaml\n`
    );
    await rejects(file, 'plugins[0].path', 'garbage-plugin.yaml', 'not valid YAML or JSON');
  });

  it('rejects: unreadable configuration file', async () => {
    await rejects(join(dir, 'does-not-exist.yaml'), 'cannot read', 'ENOENT');
  });
});
