// Table tests of --runtime-config parsing and resolution (spec: Versioning, API stability levels
// and groups; life cycle table rows Alpha, Beta, Stable).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allVerbs, builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import {
  enabledByDefault,
  enabledResources,
  parseRuntimeConfig,
  versionLevel,
} from './resource-config.js';

const def = (group: string, version: string, resource: string): ResourceDefinition => ({
  group,
  version,
  resource,
  kind: resource,
  listKind: `${resource}List`,
  singular: resource,
  namespaced: true,
  verbs: allVerbs,
});

// The built-in kinds plus versions of each stability level, as other groups may bring them.
const known: ResourceDefinition[] = [
  ...builtinResources,
  def('batch', 'v1', 'jobs'),
  def('batch', 'v1', 'cronjobs'),
  def('batch', 'v1beta1', 'cronjobs'), // beta introduced 1.8: on by default
  def('networking.orch.io', 'v1beta1', 'ipaddresses'), // beta introduced 1.31: off
  def('networking.orch.io', 'v1beta1', 'servicecidrs'),
  def('storagemigration.orch.io', 'v1alpha1', 'storageversionmigrations'), // alpha: off
];

const served = (flag: string): Set<string> =>
  new Set(enabledResources(known, flag).map((d) => `${d.group}/${d.version}/${d.resource}`));

describe('versionLevel and defaults', () => {
  const rows: [string, string, string | undefined, boolean][] = [
    // group, version, level, enabled by default
    ['', 'v1', 'ga', true],
    ['apps', 'v1', 'ga', true],
    ['batch', 'v1beta1', 'beta', true], // Beta row: introduced before 1.22
    ['networking.orch.io', 'v1beta1', 'beta', false], // Beta row: introduced 1.31
    ['example.orch.io', 'v1beta1', 'beta', false], // unknown introduction: off
    ['storagemigration.orch.io', 'v1alpha1', 'alpha', false], // Alpha row
    ['x.orch.io', 'v1beta', undefined, false],
    ['x.orch.io', 'v0', undefined, false],
  ];
  for (const [group, version, level, on] of rows) {
    it(`${group}/${version}: ${level ?? 'not a version'}, ${on ? 'on' : 'off'} by default`, () => {
      assert.equal(versionLevel(version), level);
      assert.equal(enabledByDefault(group, version), on);
    });
  }
});

describe('parseRuntimeConfig', () => {
  const rows: { flag: string; want?: [string, boolean][]; error?: RegExp }[] = [
    { flag: '', want: [] },
    { flag: 'batch/v1beta1', want: [['batch/v1beta1', true]] }, // missing value means true
    {
      flag: ' api/alpha=true , batch/v1/jobs=false,,',
      want: [
        ['api/alpha', true],
        ['batch/v1/jobs', false],
      ],
    },
    { flag: 'api/all=0', want: [['api/all', false]] },
    { flag: 'batch/v1=yes', error: /invalid value of batch\/v1: "yes"/ },
    { flag: '=true', error: /the key is empty/ },
  ];
  for (const r of rows) {
    it(JSON.stringify(r.flag), () => {
      if (r.error) {
        assert.throws(() => parseRuntimeConfig(r.flag), r.error);
        return;
      }
      assert.deepEqual(
        parseRuntimeConfig(r.flag).map((e) => [e.key, e.value]),
        r.want
      );
    });
  }
});

describe('resolution', () => {
  const rows: { name: string; flag: string; on?: string[]; off?: string[]; error?: RegExp }[] = [
    {
      name: 'defaults: GA and betas before 1.22 on, later betas and alphas off',
      flag: '',
      on: ['apps/v1/deployments', '/v1/pods', 'batch/v1beta1/cronjobs'],
      off: [
        'networking.orch.io/v1beta1/ipaddresses',
        'storagemigration.orch.io/v1alpha1/storageversionmigrations',
      ],
    },
    {
      name: 'a group version off',
      flag: 'batch/v1=false',
      on: ['batch/v1beta1/cronjobs'],
      off: ['batch/v1/jobs', 'batch/v1/cronjobs'],
    },
    {
      name: 'one resource off, the rest of its version served',
      flag: 'batch/v1/cronjobs=false',
      on: ['batch/v1/jobs'],
      off: ['batch/v1/cronjobs'],
    },
    {
      name: 'one resource of an off version on: only it is served',
      flag: 'networking.orch.io/v1beta1/servicecidrs',
      on: ['networking.orch.io/v1beta1/servicecidrs'],
      off: ['networking.orch.io/v1beta1/ipaddresses'],
    },
    {
      name: 'api/alpha and api/beta',
      flag: 'api/alpha=true,api/beta',
      on: [
        'storagemigration.orch.io/v1alpha1/storageversionmigrations',
        'networking.orch.io/v1beta1/ipaddresses',
      ],
    },
    {
      name: 'api/beta=false turns the old betas off too',
      flag: 'api/beta=false',
      on: ['batch/v1/jobs'],
      off: ['batch/v1beta1/cronjobs'],
    },
    {
      name: 'api/all=false then one group back, whatever the order',
      flag: 'apps/v1=true,api/all=false',
      on: ['apps/v1/deployments'],
      off: ['/v1/pods', 'batch/v1/jobs'],
    },
    {
      name: 'api/ga=false leaves betas as they were',
      flag: 'api/ga=false',
      on: ['batch/v1beta1/cronjobs'],
      off: ['batch/v1/jobs'],
    },
    {
      name: 'core spelled v1 and api/v1, and a core resource',
      flag: 'v1/configmaps=false,api/v1/secrets=false',
      on: ['/v1/pods'],
      off: ['/v1/configmaps', '/v1/secrets'],
    },
    {
      name: 'unknown group version',
      flag: 'nope.orch.io/v1=true',
      error: /unknown group version "nope.orch.io\/v1"/,
    },
    {
      name: 'unknown version of a known group',
      flag: 'batch/v2',
      error: /unknown group version "batch\/v2"/,
    },
    {
      name: 'unknown resource',
      flag: 'batch/v1/nopes=false',
      error: /unknown resource "batch\/v1\/nopes"/,
    },
    {
      name: 'too many parts',
      flag: 'batch/v1/jobs/status',
      error: /invalid key "batch\/v1\/jobs\/status"/,
    },
    {
      name: 'a bare group',
      flag: 'batch',
      error: /unknown group version "batch"|invalid key "batch"/,
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      if (r.error) {
        assert.throws(() => served(r.flag), r.error);
        return;
      }
      const s = served(r.flag);
      for (const k of r.on ?? []) assert.ok(s.has(k), `${k} served`);
      for (const k of r.off ?? []) assert.ok(!s.has(k), `${k} not served`);
    });
  }
});
