// APIService validation, row by row against upstream's ValidateAPIService and
// ValidateAPIServiceStatus (kube-aggregator pkg/apis/apiregistration/validation).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '@orch/apimachinery/meta';
import { realisticObjects } from '@orch/apimachinery/testdata';
import {
  apiServiceStatusStrategy,
  apiServiceStrategy,
  validateAPIService,
  validateAPIServiceStatus,
} from './strategy.js';

type Json = Record<string, unknown>;
const base = (): ApiObject =>
  structuredClone(realisticObjects['apiregistration.orch.io/v1/APIService']) as ApiObject;
const spec = (o: ApiObject): Json => o['spec'] as Json;
const errors = (o: ApiObject) =>
  validateAPIService(o).map((e) => [e.type, e.field, e.message] as const);

describe('APIService strategy', () => {
  it('accepts the realistic object and a local APIService', () => {
    assert.deepEqual(validateAPIService(base()), []);
    const local = base();
    local.metadata.name = 'v1.apps';
    local['spec'] = {
      group: 'apps',
      version: 'v1',
      groupPriorityMinimum: 17800,
      versionPriority: 15,
    };
    assert.deepEqual(validateAPIService(local), []);
    const core = base();
    core.metadata.name = 'v1.';
    core['spec'] = { version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 };
    assert.deepEqual(validateAPIService(core), []);
  });

  const rows: [string, (o: ApiObject) => void, [string, string, string][]][] = [
    [
      'a name that is not version.group',
      (o) => (o.metadata.name = 'metrics'),
      [
        [
          'FieldValueInvalid',
          'metadata.name',
          'must be `spec.version+"."+spec.group`: "v1beta1.metrics.orch.io"',
        ],
      ],
    ],
    [
      'a generateName that is not version.group (upstream checks it with the name function)',
      (o) => (o.metadata.generateName = 'g'.repeat(254)),
      [
        [
          'FieldValueInvalid',
          'metadata.generateName',
          'must be `spec.version+"."+spec.group`: "v1beta1.metrics.orch.io"',
        ],
      ],
    ],
    [
      'a generateName of ".." (a whole path segment, as upstream asks of it)',
      (o) => (o.metadata.generateName = '..'),
      [['FieldValueInvalid', 'metadata.generateName', "may not be '..'"]],
    ],
    [
      'an empty group with a version other than v1',
      (o) => {
        o.metadata.name = 'v2.';
        Object.assign(spec(o), { group: '', version: 'v2' });
        delete spec(o)['service'];
        delete spec(o)['insecureSkipTLSVerify'];
      },
      [
        [
          'FieldValueRequired',
          'spec.group',
          'only v1 may have an empty group and it better be legacy kube',
        ],
      ],
    ],
    [
      'a version that is not a DNS-1035 label',
      (o) => {
        o.metadata.name = '1x.metrics.orch.io';
        spec(o)['version'] = '1x';
      },
      [
        [
          'FieldValueInvalid',
          'spec.version',
          "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        ],
      ],
    ],
    [
      'priorities out of range',
      (o) => Object.assign(spec(o), { groupPriorityMinimum: 20001, versionPriority: 0 }),
      [
        ['FieldValueInvalid', 'spec.groupPriorityMinimum', 'must be positive and less than 20000'],
        ['FieldValueInvalid', 'spec.versionPriority', 'must be positive and less than 1000'],
      ],
    ],
    [
      'a local APIService with a caBundle and insecureSkipTLSVerify',
      (o) => {
        delete spec(o)['service'];
        spec(o)['caBundle'] = Buffer.from('0123456789').toString('base64');
      },
      [
        ['FieldValueInvalid', 'spec.caBundle', 'local APIServices may not have a caBundle'],
        [
          'FieldValueInvalid',
          'spec.insecureSkipTLSVerify',
          'local APIServices may not have insecureSkipTLSVerify',
        ],
      ],
    ],
    [
      'a service without namespace nor name, a bad port, insecure with a caBundle',
      (o) => {
        spec(o)['service'] = { port: 70000 };
        spec(o)['caBundle'] = Buffer.from('x').toString('base64');
      },
      [
        ['FieldValueRequired', 'spec.service.namespace', ''],
        ['FieldValueRequired', 'spec.service.name', ''],
        [
          'FieldValueInvalid',
          'spec.service.port',
          'port is not valid: must be between 1 and 65535, inclusive',
        ],
        [
          'FieldValueInvalid',
          'spec.insecureSkipTLSVerify',
          'may not be true if caBundle is present',
        ],
      ],
    ],
  ];
  for (const [name, change, want] of rows)
    it(`refuses ${name}`, () => {
      const o = base();
      change(o);
      assert.deepEqual(errors(o), want);
    });

  it('validates a status write: conditions True, False or Unknown; the spec is kept', () => {
    const o = base();
    assert.deepEqual(validateAPIServiceStatus(o), []);
    ((o['status'] as Json)['conditions'] as Json[])[0]!['status'] = 'Maybe';
    assert.deepEqual(
      apiServiceStatusStrategy.validateUpdate(o, base()).map((e) => [e.field, e.message]),
      [['status.conditions[0].status', 'supported values: "True", "False", "Unknown"']]
    );
    const next = base();
    spec(next)['versionPriority'] = 5;
    (next['status'] as Json)['conditions'] = [];
    apiServiceStatusStrategy.prepareForUpdate(next, base());
    assert.equal(spec(next)['versionPriority'], 100);
    assert.deepEqual((next['status'] as Json)['conditions'], []);
  });

  it('clears status on create and keeps it on a write of the main resource; path-segment names', () => {
    const o = base();
    apiServiceStrategy.prepareForCreate(o);
    assert.equal(o['status'], undefined);
    const next = base();
    next['status'] = { conditions: [] };
    apiServiceStrategy.prepareForUpdate(next, base());
    assert.deepEqual(next['status'], base()['status']);
    assert.equal(apiServiceStrategy.nameRule, 'path-segment');
    assert.equal(apiServiceStrategy.hasStatus, true);
  });
});
