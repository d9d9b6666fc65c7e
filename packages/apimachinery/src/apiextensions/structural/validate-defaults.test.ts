// validateDefaults: upstream defaulting.ValidateDefaults with requirePrunedDefaults, a row per
// case (valid defaults, unknown fields, wrong types, nested and list defaults, embedded resources,
// and defaults checked against x-kubernetes-validations as upstream's validation_test.go "valid
// default with x-kubernetes-validations" / "invalid default with x-kubernetes-validations").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage, newPath } from '../../errors/index.js';
import type { JSONSchemaProps } from '../types.js';
import { validateDefaults } from '../index.js';

const P = 'openAPIV3Schema';
const S = `${P}.properties[spec]`;
const spec = (s: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { spec: s } });

const rows: { name: string; schema: JSONSchemaProps; want: string[] }[] = [
  {
    name: 'valid scalar, object and list defaults',
    schema: spec({
      type: 'object',
      default: { replicas: 1 },
      properties: {
        replicas: { type: 'integer', minimum: 0, default: 1 },
        mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
        tags: { type: 'array', items: { type: 'string' }, default: ['x'] },
      },
    }),
    want: [],
  },
  {
    name: 'a default of the wrong type',
    schema: spec({ type: 'object', properties: { replicas: { type: 'integer', default: 'one' } } }),
    want: [
      `${S}.properties[replicas].default: Invalid value: "string":  in body must be of type integer: "string"`,
    ],
  },
  {
    name: 'a default outside the enum',
    schema: spec({
      type: 'object',
      properties: { m: { type: 'string', enum: ['a'], default: 'b' } },
    }),
    want: [`${S}.properties[m].default: Unsupported value: "b": supported values: "a"`],
  },
  {
    name: 'an object default with unknown fields',
    schema: spec({
      type: 'object',
      default: { replicas: 1, bogus: true },
      properties: { replicas: { type: 'integer' } },
    }),
    want: [
      `${S}.default: Invalid value: {"replicas":1,"bogus":true}: must not have unknown fields`,
    ],
  },
  {
    name: 'an object default missing a required field',
    schema: spec({
      type: 'object',
      default: {},
      required: ['name'],
      properties: { name: { type: 'string' } },
    }),
    want: [`${S}.default.name: Required value`],
  },
  {
    name: 'a list item default violating the item schema',
    schema: spec({
      type: 'array',
      items: { type: 'string', maxLength: 2, default: 'long' },
    }),
    want: [`${S}.items.default: Too long: may not be more than 2 bytes`],
  },
  {
    name: 'a map value default',
    schema: spec({
      type: 'object',
      additionalProperties: { type: 'integer', minimum: 1, default: 0 },
    }),
    want: [
      `${S}.additionalProperties.default: Invalid value: 0:  in body should be greater than or equal to 1`,
    ],
  },
  {
    name: 'an embedded resource default needs apiVersion and kind',
    schema: spec({
      type: 'object',
      properties: {
        tpl: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
          default: { metadata: { name: 'x' } },
        },
      },
    }),
    want: [
      `${S}.properties[tpl].default.apiVersion: Required value`,
      `${S}.properties[tpl].default.kind: Required value`,
    ],
  },
  {
    name: 'defaults that pass their x-kubernetes-validations rules',
    schema: spec({
      type: 'object',
      properties: {
        value: {
          type: 'string',
          'x-kubernetes-validations': [{ rule: "self.startsWith('kube')" }],
          default: 'kube-system',
        },
        object: {
          type: 'object',
          properties: { field1: { type: 'integer' }, field2: { type: 'integer' } },
          'x-kubernetes-validations': [{ rule: 'self.field1 < self.field2' }],
          default: { field1: 1, field2: 2 },
        },
      },
    }),
    want: [],
  },
  {
    name: 'defaults that fail their x-kubernetes-validations rules (upstream invalid default with x-kubernetes-validations)',
    schema: spec({
      type: 'object',
      properties: {
        embedded: {
          type: 'object',
          properties: {
            metadata: {
              type: 'object',
              'x-kubernetes-embedded-resource': true,
              properties: {
                name: {
                  type: 'string',
                  'x-kubernetes-validations': [{ rule: "self == 'singleton'" }],
                  default: 'nope',
                },
              },
            },
          },
        },
        value: {
          type: 'string',
          'x-kubernetes-validations': [{ rule: "self.startsWith('kube')" }],
          default: 'nope',
        },
        object: {
          type: 'object',
          properties: { field1: { type: 'integer' }, field2: { type: 'integer' } },
          'x-kubernetes-validations': [
            { rule: 'self.field1 < self.field2', message: 'field1 must be below field2' },
          ],
          default: { field1: 2, field2: 1 },
        },
      },
    }),
    want: [
      `${S}.properties[embedded].properties[metadata].properties[name].default: Invalid value: "nope": failed rule: self == 'singleton'`,
      `${S}.properties[value].default: Invalid value: "nope": failed rule: self.startsWith('kube')`,
      `${S}.properties[object].default: Invalid value: "object": field1 must be below field2`,
    ],
  },
  {
    name: 'a rule below the defaulted node is checked at its path under default',
    schema: spec({
      type: 'object',
      default: { items: [{ name: 'b' }] },
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string' } },
            'x-kubernetes-validations': [
              {
                rule: "self.name.startsWith('a')",
                fieldPath: '.name',
                reason: 'FieldValueForbidden',
              },
            ],
          },
        },
      },
    }),
    want: [`${S}.default.items[0].name: Forbidden: failed rule: self.name.startsWith('a')`],
  },
  {
    name: 'a transition rule sees the default as its old value (self == oldSelf holds)',
    schema: spec({
      type: 'object',
      properties: {
        immutable: {
          type: 'string',
          'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable' }],
          default: 'x',
        },
      },
    }),
    want: [],
  },
  {
    name: 'an optionalOldSelf rule is checked without an old value too (CRDValidationRatcheting)',
    schema: spec({
      type: 'object',
      properties: {
        created: {
          type: 'string',
          'x-kubernetes-validations': [
            {
              rule: "oldSelf.hasValue() || self == 'fresh'",
              optionalOldSelf: true,
              message: 'must be fresh on create',
            },
          ],
          default: 'stale',
        },
      },
    }),
    want: [`${S}.properties[created].default: Invalid value: "stale": must be fresh on create`],
  },
  {
    name: 'a set-list default compared ignoring order',
    schema: spec({
      type: 'object',
      properties: {
        tags: {
          type: 'array',
          'x-kubernetes-list-type': 'set',
          items: { type: 'string' },
          'x-kubernetes-validations': [{ rule: "self == ['a', 'b']" }],
          default: ['b', 'a'],
        },
      },
    }),
    want: [],
  },
  {
    name: 'a default its schema refuses is not also checked against the rules',
    schema: spec({
      type: 'object',
      properties: {
        n: {
          type: 'integer',
          minimum: 5,
          'x-kubernetes-validations': [{ rule: 'self > 10' }],
          default: 1,
        },
      },
    }),
    want: [
      `${S}.properties[n].default: Invalid value: 1:  in body should be greater than or equal to 5`,
    ],
  },
];

for (const row of rows) {
  test(`validateDefaults: ${row.name}`, () => {
    const got = validateDefaults(row.schema, newPath(P)).map(fieldErrorMessage);
    assert.deepEqual([...got].sort(), [...row.want].sort());
  });
}
