// ResourceQuotaConfiguration as --admission-control-config-file gives it: limitedResources read
// with their defaults, and a bad configuration refused naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  hasLimitedResources,
  parseResourceQuotaConfiguration,
} from './resource-quota-configuration.js';

test('ResourceQuotaConfiguration: none, valid, and refused with the field named', () => {
  assert.deepEqual(parseResourceQuotaConfiguration(undefined), { limitedResources: [] });
  assert.deepEqual(
    parseResourceQuotaConfiguration({
      apiVersion: 'apiserver.config.orch.io/v1',
      kind: 'ResourceQuotaConfiguration',
      limitedResources: [
        { resource: 'pods', matchContains: ['requests.cpu'] },
        {
          apiGroup: 'apps',
          resource: 'deployments',
          matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }],
        },
      ],
    }),
    {
      limitedResources: [
        { apiGroup: '', resource: 'pods', matchContains: ['requests.cpu'], matchScopes: [] },
        {
          apiGroup: 'apps',
          resource: 'deployments',
          matchContains: [],
          matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }],
        },
      ],
    }
  );
  const rows: [string, unknown, RegExp][] = [
    [
      'no resource',
      { limitedResources: [{ matchContains: ['cpu'] }] },
      /limitedResources\[0\]\.resource: Required value/,
    ],
    [
      'wrong kind',
      { kind: 'AdmissionConfiguration' },
      /kind: Unsupported value: "AdmissionConfiguration"/,
    ],
    [
      'not a list',
      { limitedResources: 'pods' },
      /limitedResources: Invalid value: "pods": must be a list/,
    ],
  ];
  for (const [name, config, error] of rows) {
    assert.throws(() => parseResourceQuotaConfiguration(config), error, name);
  }
});

test('hasLimitedResources: none without a configuration or with an empty list; an invalid one may', () => {
  assert.equal(hasLimitedResources(undefined), false);
  assert.equal(
    hasLimitedResources({ kind: 'ResourceQuotaConfiguration', limitedResources: [] }),
    false
  );
  assert.equal(
    hasLimitedResources({
      kind: 'ResourceQuotaConfiguration',
      limitedResources: [{ resource: 'pods', matchContains: ['requests.cpu'] }],
    }),
    true
  );
  assert.equal(hasLimitedResources({ limitedResources: 'nope' }), true);
});
