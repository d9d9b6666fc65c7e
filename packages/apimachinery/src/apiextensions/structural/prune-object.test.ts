// pruneObject: upstream pkg/apiserver/schema/pruning PruneWithOptions (ReturnPruned) over
// nested objects, lists, maps, embedded resources and preserve-unknown-fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONSchemaProps } from '../types.js';
import { pruneObject } from '../index.js';

interface Row {
  name: string;
  schema: JSONSchemaProps;
  obj: unknown;
  isResourceRoot?: boolean;
  want: unknown;
  pruned: string[];
}

const str: JSONSchemaProps = { type: 'string' };

const rows: Row[] = [
  {
    name: 'root: apiVersion, kind, metadata kept; unknown top-level field pruned',
    isResourceRoot: true,
    schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: str } } } },
    obj: {
      apiVersion: 'x/v1',
      kind: 'X',
      metadata: { name: 'n', labels: { a: 'b' } },
      spec: { a: 'x', b: 'y' },
      extra: 1,
    },
    want: {
      apiVersion: 'x/v1',
      kind: 'X',
      metadata: { name: 'n', labels: { a: 'b' } },
      spec: { a: 'x' },
    },
    pruned: ['extra', 'spec.b'],
  },
  {
    name: 'not a resource root: apiVersion, kind, metadata at the top pruned silently',
    schema: { type: 'object', properties: { spec: { type: 'object' } } },
    obj: { apiVersion: 'x/v1', kind: 'X', metadata: {}, spec: { a: 1 } },
    want: { spec: {} },
    pruned: ['spec.a'],
  },
  {
    name: 'nested objects',
    schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { inner: { type: 'object', properties: { keep: str } } },
        },
      },
    },
    obj: { spec: { inner: { keep: 'a', drop: 'b', deeper: { x: 1 } } } },
    want: { spec: { inner: { keep: 'a' } } },
    pruned: ['spec.inner.deeper', 'spec.inner.drop'],
  },
  {
    name: 'lists of objects',
    schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            list: { type: 'array', items: { type: 'object', properties: { name: str } } },
          },
        },
      },
    },
    obj: { spec: { list: [{ name: 'a', bar: 1 }, { name: 'b' }, { bar: 2, baz: 3 }] } },
    want: { spec: { list: [{ name: 'a' }, { name: 'b' }, {}] } },
    pruned: ['spec.list[0].bar', 'spec.list[2].bar', 'spec.list[2].baz'],
  },
  {
    name: 'lists of lists',
    schema: {
      type: 'object',
      properties: {
        m: {
          type: 'array',
          items: { type: 'array', items: { type: 'object', properties: { a: str } } },
        },
      },
    },
    obj: { m: [[{ a: 'x', b: 'y' }], []] },
    want: { m: [[{ a: 'x' }], []] },
    pruned: ['m[0][0].b'],
  },
  {
    name: 'maps: additionalProperties schema prunes each value',
    schema: {
      type: 'object',
      properties: {
        byName: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { port: { type: 'integer' } } },
        },
      },
    },
    obj: { byName: { web: { port: 80, host: 'x' }, db: { port: 5432 } } },
    want: { byName: { web: { port: 80 }, db: { port: 5432 } } },
    pruned: ['byName.web.host'],
  },
  {
    name: 'maps of strings keep every key',
    schema: {
      type: 'object',
      properties: { labels: { type: 'object', additionalProperties: str } },
    },
    obj: { labels: { a: '1', b: '2' } },
    want: { labels: { a: '1', b: '2' } },
    pruned: [],
  },
  {
    name: 'additionalProperties: true keeps keys but prunes their object values (no schema)',
    schema: { type: 'object', properties: { m: { type: 'object', additionalProperties: true } } },
    obj: { m: { a: 'x', b: { c: 1 } } },
    want: { m: { a: 'x', b: {} } },
    pruned: ['m.b.c'],
  },
  {
    name: 'preserve-unknown-fields keeps unknown fields, prunes inside specified ones',
    schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { a: str } } },
        },
      },
    },
    obj: { spec: { free: { anything: [1, { x: 2 }] }, known: { a: 'x', b: 'y' } } },
    want: { spec: { free: { anything: [1, { x: 2 }] }, known: { a: 'x' } } },
    pruned: ['spec.known.b'],
  },
  {
    name: 'preserve-unknown-fields at the root',
    isResourceRoot: true,
    schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    obj: { apiVersion: 'x/v1', kind: 'X', anything: { a: 1 } },
    want: { apiVersion: 'x/v1', kind: 'X', anything: { a: 1 } },
    pruned: [],
  },
  {
    name: 'preserve-unknown-fields on list items',
    schema: {
      type: 'object',
      properties: {
        l: {
          type: 'array',
          items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    },
    obj: { l: [{ a: 1 }, { b: { c: 2 } }] },
    want: { l: [{ a: 1 }, { b: { c: 2 } }] },
    pruned: [],
  },
  {
    name: 'embedded resource: apiVersion, kind, metadata kept; other fields per schema',
    schema: {
      type: 'object',
      properties: {
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { image: str } } },
        },
      },
    },
    obj: {
      template: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', annotations: { a: 'b' } },
        spec: { image: 'nginx', command: ['x'] },
        status: {},
      },
    },
    want: {
      template: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', annotations: { a: 'b' } },
        spec: { image: 'nginx' },
      },
    },
    pruned: ['template.spec.command', 'template.status'],
  },
  {
    name: 'embedded resource with preserve-unknown-fields keeps everything',
    schema: {
      type: 'object',
      properties: {
        raw: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
      },
    },
    obj: { raw: { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' } } },
    want: { raw: { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' } } },
    pruned: [],
  },
  {
    name: 'nested apiVersion/kind/metadata outside embedded resources are pruned and reported',
    schema: { type: 'object', properties: { spec: { type: 'object' } } },
    obj: { spec: { kind: 'X', metadata: {} } },
    want: { spec: {} },
    pruned: ['spec.kind', 'spec.metadata'],
  },
  {
    name: 'int-or-string and scalars untouched; nulls kept',
    schema: {
      type: 'object',
      properties: {
        port: { 'x-kubernetes-int-or-string': true },
        n: { type: 'string', nullable: true },
      },
    },
    obj: { port: 8080, n: null },
    want: { port: 8080, n: null },
    pruned: [],
  },
  {
    name: 'object value where the schema has no properties prunes every field',
    schema: { type: 'object', properties: { s: { type: 'object' } } },
    obj: { s: { b: 1, a: 2 } },
    want: { s: {} },
    pruned: ['s.a', 's.b'],
  },
  {
    name: 'additionalProperties: false keeps keys (value validation refuses them)',
    schema: { type: 'object', properties: { m: { type: 'object', additionalProperties: false } } },
    obj: { m: { a: 'x' } },
    want: { m: { a: 'x' } },
    pruned: [],
  },
  {
    name: 'a map inside a list inside a map',
    schema: {
      type: 'object',
      properties: {
        m: {
          type: 'object',
          additionalProperties: {
            type: 'array',
            items: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
        k: { type: 'string' },
      },
    },
    obj: { m: { a: [{ x: 'y' }, 'scalar'] }, k: 'v', z: [{ deep: 1 }] },
    want: { m: { a: [{ x: 'y' }, 'scalar'] }, k: 'v' },
    pruned: ['z'],
  },
];

for (const row of rows) {
  test(`pruneObject: ${row.name}`, () => {
    const obj = structuredClone(row.obj);
    const pruned = pruneObject(obj, row.schema, { isResourceRoot: row.isResourceRoot ?? false });
    assert.deepEqual(obj, row.want);
    assert.deepEqual(pruned, row.pruned);
  });
}

test('pruneObject: does not change the schema', () => {
  const schema: JSONSchemaProps = { type: 'object', properties: { a: str } };
  const before = structuredClone(schema);
  pruneObject({ a: 'x', apiVersion: 'v1' }, schema, { isResourceRoot: true });
  assert.deepEqual(schema, before);
});
