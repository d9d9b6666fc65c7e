// applyDefaults: upstream pkg/apiserver/schema/defaulting Default then
// PruneNonNullableNullsWithoutDefaults, over nested objects, lists, maps and nullable fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONSchemaProps } from '../types.js';
import { applyDefaults } from '../index.js';

interface Row {
  name: string;
  schema: JSONSchemaProps;
  obj: unknown;
  want: unknown;
}

const rows: Row[] = [
  {
    name: 'missing scalar fields get their defaults; present ones are kept',
    schema: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 1 },
        mode: { type: 'string', default: 'fast' },
        on: { type: 'boolean', default: true },
      },
    },
    obj: { mode: 'slow' },
    want: { replicas: 1, mode: 'slow', on: true },
  },
  {
    name: 'nested: a defaulted object is itself defaulted inside',
    schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          default: {},
          properties: {
            a: { type: 'string', default: 'A' },
            inner: { type: 'object', properties: { b: { type: 'integer', default: 2 } } },
          },
        },
      },
    },
    obj: {},
    want: { spec: { a: 'A' } },
  },
  {
    name: 'nested: an existing object without the default keeps going down',
    schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            inner: { type: 'object', properties: { b: { type: 'integer', default: 2 } } },
          },
        },
      },
    },
    obj: { spec: { inner: {} } },
    want: { spec: { inner: { b: 2 } } },
  },
  {
    name: 'object defaults are deep copies',
    schema: {
      type: 'object',
      properties: {
        a: {
          type: 'object',
          default: { x: [1] },
          properties: { x: { type: 'array', items: { type: 'integer' } } },
        },
        b: {
          type: 'object',
          default: { x: [1] },
          properties: { x: { type: 'array', items: { type: 'integer' } } },
        },
      },
    },
    obj: {},
    want: { a: { x: [1] }, b: { x: [1] } },
  },
  {
    name: 'list items are defaulted',
    schema: {
      type: 'object',
      properties: {
        ports: {
          type: 'array',
          items: {
            type: 'object',
            properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } },
          },
        },
      },
    },
    obj: { ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] },
    want: {
      ports: [
        { port: 80, protocol: 'TCP' },
        { port: 53, protocol: 'UDP' },
      ],
    },
  },
  {
    name: 'null list items of non-nullable items with a default take the default',
    schema: {
      type: 'object',
      properties: { l: { type: 'array', items: { type: 'string', default: 'x' } } },
    },
    obj: { l: ['a', null] },
    want: { l: ['a', 'x'] },
  },
  {
    name: 'map values are defaulted through additionalProperties',
    schema: {
      type: 'object',
      properties: {
        m: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            properties: { weight: { type: 'integer', default: 1 } },
          },
        },
      },
    },
    obj: { m: { a: {}, b: { weight: 5 } } },
    want: { m: { a: { weight: 1 }, b: { weight: 5 } } },
  },
  {
    name: 'null map values take the additionalProperties default',
    schema: {
      type: 'object',
      properties: { m: { type: 'object', additionalProperties: { type: 'string', default: 'd' } } },
    },
    obj: { m: { a: null, b: 'x' } },
    want: { m: { a: 'd', b: 'x' } },
  },
  {
    name: 'null of a non-nullable field with a default takes the default',
    schema: { type: 'object', properties: { a: { type: 'string', default: 'x' } } },
    obj: { a: null },
    want: { a: 'x' },
  },
  {
    name: 'null of a nullable field with a default stays null',
    schema: { type: 'object', properties: { a: { type: 'string', nullable: true, default: 'x' } } },
    obj: { a: null },
    want: { a: null },
  },
  {
    name: 'null of a non-nullable field without a default is dropped',
    schema: {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'string', nullable: true },
        spec: { type: 'object', properties: { c: { type: 'integer' } } },
      },
    },
    obj: { a: null, b: null, spec: { c: null } },
    want: { b: null, spec: {} },
  },
  {
    name: 'nulls of unknown fields are kept (pruning removes those)',
    schema: { type: 'object', properties: { a: { type: 'string' } } },
    obj: { z: null },
    want: { z: null },
  },
  {
    name: 'nulls inside list items of objects are dropped',
    schema: {
      type: 'object',
      properties: {
        l: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
      },
    },
    obj: { l: [{ a: null }] },
    want: { l: [{}] },
  },
  {
    name: 'defaults under preserve-unknown-fields still apply to specified properties',
    schema: {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: { a: { type: 'string', default: 'x' } },
    },
    obj: { other: 1 },
    want: { other: 1, a: 'x' },
  },
  {
    name: 'scalars and wrong shapes are left alone',
    schema: {
      type: 'object',
      properties: { spec: { type: 'object', properties: { a: { type: 'string', default: 'x' } } } },
    },
    obj: { spec: 'not an object' },
    want: { spec: 'not an object' },
  },
];

for (const row of rows) {
  test(`applyDefaults: ${row.name}`, () => {
    const obj = structuredClone(row.obj);
    applyDefaults(obj, row.schema);
    assert.deepEqual(obj, row.want);
  });
}

test('applyDefaults: a default written into one object is not shared with the schema', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      o: { type: 'object', default: { k: 'v' }, properties: { k: { type: 'string' } } },
    },
  };
  const obj: any = {};
  applyDefaults(obj, schema);
  obj.o.k = 'changed';
  assert.deepEqual((schema.properties!.o as JSONSchemaProps).default, { k: 'v' });
});
