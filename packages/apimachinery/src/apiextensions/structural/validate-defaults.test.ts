// validateDefaults: upstream defaulting.ValidateDefaults with requirePrunedDefaults, a row per
// case (valid defaults, unknown fields, wrong types, nested and list defaults, embedded resources).
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
];

for (const row of rows) {
  test(`validateDefaults: ${row.name}`, () => {
    const got = validateDefaults(row.schema, newPath(P)).map(fieldErrorMessage);
    assert.deepEqual([...got].sort(), [...row.want].sort());
  });
}
