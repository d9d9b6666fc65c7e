// ValidateVolumeAttributesClass(Update) as a table, each row naming the upstream rule
// (k8s pkg/apis/storage/validation/validation_test.go TestValidateVolumeAttributesClass...).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { realisticObjects } from '@orch/apimachinery/testdata';
import { volumeAttributesClassStrategy } from './strategy.js';

const { validate, validateUpdate } = volumeAttributesClassStrategy;
const fmt = (errs: FieldError[]): string[] =>
  errs.map((e) => `${e.field}: ${e.type}${e.message ? `: ${e.message}` : ''}`);
const vac = (fields: Record<string, unknown> = {}): ApiObject => ({
  metadata: { name: 'gold' },
  driverName: 'csi.example.com',
  parameters: { iops: '5000' },
  ...fields,
});
const many = (n: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));

const rows: [string, ApiObject, string[]][] = [
  ['a valid class', vac(), []],
  [
    'the realistic object',
    realisticObjects['storage.orch.io/v1beta1/VolumeAttributesClass'] as ApiObject,
    [],
  ],
  ['driverName: required', vac({ driverName: '' }), ['driverName: FieldValueRequired']],
  [
    'driverName: a qualified name',
    vac({ driverName: 'a b' }),
    [
      "driverName: FieldValueInvalid: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ],
  ],
  ['driverName: upper case is lowered first', vac({ driverName: 'CSI.Example.com' }), []],
  [
    'parameters: at least one',
    vac({ parameters: {} }),
    ['parameters: FieldValueRequired: must contain at least one key/value pair'],
  ],
  [
    'parameters: absent is none',
    vac({ parameters: undefined }),
    ['parameters: FieldValueRequired: must contain at least one key/value pair'],
  ],
  [
    'parameters: no empty key',
    vac({ parameters: { '': 'x' } }),
    ['parameters: FieldValueInvalid: field can not be empty.'],
  ],
  ['parameters: 512 keys', vac({ parameters: many(512) }), []],
  [
    'parameters: at most 512 keys',
    vac({ parameters: many(513) }),
    ['parameters: FieldValueTooLong: may not be more than 512 bytes'],
  ],
  [
    'parameters: at most 256 KiB',
    vac({ parameters: { big: 'x'.repeat(256 * 1024) } }),
    ['parameters: FieldValueTooLong: may not be more than 262144 bytes'],
  ],
];
for (const [name, o, want] of rows)
  test(`ValidateVolumeAttributesClass, ${name}`, () => assert.deepEqual(fmt(validate(o)), want));

test('ValidateVolumeAttributesClassUpdate: driverName and parameters are immutable, labels not', () => {
  assert.deepEqual(
    fmt(validateUpdate(vac({ driverName: 'other.example.com', parameters: { iops: '1' } }), vac())),
    [
      'driverName: FieldValueForbidden: updates to driverName are forbidden.',
      'parameters: FieldValueForbidden: updates to parameters are forbidden.',
    ]
  );
  assert.deepEqual(
    fmt(validateUpdate(vac({ metadata: { name: 'gold', labels: { tier: 'a' } } }), vac())),
    []
  );
});

test('an update to an invalid class reports the immutable fields first, then the class', () => {
  assert.deepEqual(fmt(validateUpdate(vac({ parameters: {} }), vac())), [
    'parameters: FieldValueForbidden: updates to parameters are forbidden.',
    'parameters: FieldValueRequired: must contain at least one key/value pair',
  ]);
});
