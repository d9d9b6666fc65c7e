import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../apiextensions/index.js';
import { typedSchemaForCustomResource } from './schema-from-custom-resource.js';
import { ParseableType } from './typed-value.js';
import type { Atom, TypeRef } from './schema.js';

/** The atom of a field of the root's spec. */
function specField(props: Record<string, JSONSchemaProps>, name: string): Atom | undefined {
  const { schema, typeRef } = typedSchemaForCustomResource({
    type: 'object',
    properties: { spec: { type: 'object', properties: props } },
  });
  const root = schema.resolve(typeRef)!;
  const spec = schema.resolve(schema.findField(root.map!, 'spec')!.type)!;
  const field = schema.findField(spec.map!, name);
  return field ? schema.resolve(field.type) : undefined;
}

const deduced: TypeRef = { namedType: '__untyped_deduced_' };

describe('typedSchemaForCustomResource', () => {
  const rows: { name: string; schema: JSONSchemaProps; want: (a: Atom) => void }[] = [
    { name: 'string', schema: { type: 'string' }, want: (a) => assert.equal(a.scalar, 'string') },
    {
      name: 'integer',
      schema: { type: 'integer' },
      want: (a) => assert.equal(a.scalar, 'numeric'),
    },
    { name: 'number', schema: { type: 'number' }, want: (a) => assert.equal(a.scalar, 'numeric') },
    {
      name: 'boolean',
      schema: { type: 'boolean' },
      want: (a) => assert.equal(a.scalar, 'boolean'),
    },
    {
      name: 'int-or-string: untyped scalar',
      schema: { 'x-kubernetes-int-or-string': true },
      want: (a) => assert.deepEqual(a, { scalar: 'untyped' }),
    },
    {
      name: 'list without list-type: atomic',
      schema: { type: 'array', items: { type: 'string' } },
      want: (a) => assert.equal(a.list?.elementRelationship, 'atomic'),
    },
    {
      name: 'list-type set: associative without keys',
      schema: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      want: (a) =>
        assert.deepEqual([a.list?.elementRelationship, a.list?.keys], ['associative', []]),
    },
    {
      name: 'list-type map: associative by the list-map-keys',
      schema: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name', 'protocol'],
        items: {
          type: 'object',
          properties: { name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' } },
        },
      },
      want: (a) => {
        assert.deepEqual(
          [a.list?.elementRelationship, a.list?.keys],
          ['associative', ['name', 'protocol']]
        );
        const item = a.list!.elementType.inlined!;
        assert.deepEqual(item.map!.fields.find((f) => f.name === 'protocol')?.default, 'TCP');
      },
    },
    {
      name: 'object with properties: separable struct, no other keys',
      schema: { type: 'object', properties: { a: { type: 'string' } } },
      want: (a) => {
        assert.equal(a.map?.elementRelationship, 'separable');
        assert.deepEqual(
          a.map?.fields.map((f) => f.name),
          ['a']
        );
        assert.equal(a.map?.elementType, undefined);
      },
    },
    {
      name: 'map-type atomic',
      schema: {
        type: 'object',
        'x-kubernetes-map-type': 'atomic',
        additionalProperties: { type: 'string' },
      },
      want: (a) => {
        assert.equal(a.map?.elementRelationship, 'atomic');
        assert.deepEqual(a.map?.elementType, { inlined: { scalar: 'string' } });
      },
    },
    {
      name: 'preserve-unknown-fields object: deduced other keys',
      schema: {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        properties: { a: { type: 'string' } },
      },
      want: (a) => assert.deepEqual(a.map?.elementType, deduced),
    },
    {
      name: 'untyped preserve-unknown-fields: the deduced type',
      schema: { 'x-kubernetes-preserve-unknown-fields': true },
      want: (a) => assert.equal(a.map?.elementRelationship, 'separable'),
    },
    {
      name: 'embedded resource: apiVersion, kind and ObjectMeta added',
      schema: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        properties: { spec: { type: 'object' } },
      },
      want: (a) => {
        assert.deepEqual(
          a.map?.fields.map((f) => f.name),
          ['spec', 'apiVersion', 'kind', 'metadata']
        );
        assert.deepEqual(a.map?.fields[3]?.type, { namedType: 'orch.api.meta.v1.ObjectMeta' });
      },
    },
  ];
  for (const row of rows) it(row.name, () => row.want(specField({ f: row.schema }, 'f')!));

  it('the root has apiVersion, kind and ObjectMeta (its metadata schema replaced), and validates objects', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        metadata: { type: 'object' },
        spec: { type: 'object', properties: { n: { type: 'integer' } } },
      },
    };
    const { schema: s, typeRef } = typedSchemaForCustomResource(schema);
    assert.equal(typedSchemaForCustomResource(schema).schema, s, 'built once per schema object');
    const root = s.resolve(typeRef)!;
    assert.deepEqual(s.findField(root.map!, 'metadata')?.type, {
      namedType: 'orch.api.meta.v1.ObjectMeta',
    });
    const type = new ParseableType(s, typeRef);
    type.fromUnstructured({
      apiVersion: 'x/v1',
      kind: 'X',
      metadata: { name: 'a', labels: { a: 'b' } },
      spec: { n: 1 },
    });
    assert.throws(() => type.fromUnstructured({ spec: { n: 'one' } }), /expected numeric/);
    assert.throws(() => type.fromUnstructured({ spec: { m: 1 } }), /m/);
    assert.throws(() => type.fromUnstructured({ metadata: { labels: 'no' } }), /labels/);
  });
});
