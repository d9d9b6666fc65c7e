// Decoding a custom resource (crd-serve): fields the CRD version's schema does not specify are
// pruned and reported by fieldValidation (Strict 400, Warn one warning each, Ignore silent),
// defaults come from the schema, and binary bodies are 415, as upstream's unstructured decoding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CustomResourceDefinition } from '@orch/apimachinery/apiextensions';
import type { FieldValidation } from './decode.js';
import { decodeRequestObject } from './decode.js';

const version = {
  name: 'v1',
  served: true,
  storage: true,
  schema: {
    openAPIV3Schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            size: { type: 'integer', default: 3 },
            tags: {
              type: 'array',
              items: { type: 'object', properties: { k: { type: 'string' } } },
            },
          },
        },
      },
    },
  },
};
const crd = {
  metadata: { name: 'gizmos.example.com' },
  spec: {
    group: 'example.com',
    names: { plural: 'gizmos', kind: 'Gizmo' },
    scope: 'Namespaced',
    versions: [version],
  },
} as CustomResourceDefinition;
const def = {
  group: 'example.com',
  version: 'v1',
  kind: 'Gizmo',
  namespaced: true,
  customResource: { crd, version },
};

const body = (spec: unknown) =>
  Buffer.from(
    JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name: 'g' }, spec })
  );

const decode = (spec: unknown, mode: FieldValidation, contentType = 'application/json') => {
  const warnings: string[] = [];
  const obj = decodeRequestObject(body(spec), contentType, def, { namespace: 'ns' }, mode, (w) =>
    warnings.push(w)
  );
  return { obj, warnings };
};

const rows: {
  name: string;
  spec: unknown;
  mode: FieldValidation;
  warnings?: string[];
  error?: RegExp;
  want?: unknown;
}[] = [
  {
    name: 'known fields kept, defaults set',
    spec: { tags: [{ k: 'a' }] },
    mode: 'Strict',
    warnings: [],
    want: { size: 3, tags: [{ k: 'a' }] },
  },
  {
    name: 'Warn: one warning per pruned field, with its path',
    spec: { x: 1, tags: [{ k: 'a', y: 2 }] },
    mode: 'Warn',
    warnings: ['unknown field "spec.tags[0].y"', 'unknown field "spec.x"'],
    want: { size: 3, tags: [{ k: 'a' }] },
  },
  {
    name: 'Ignore: pruned silently',
    spec: { x: 1 },
    mode: 'Ignore',
    warnings: [],
    want: { size: 3 },
  },
  {
    name: 'Strict: 400 naming the fields',
    spec: { x: 1, z: 2 },
    mode: 'Strict',
    error: /^strict decoding error: unknown field "spec.x", unknown field "spec.z"$/,
  },
];

for (const row of rows) {
  test(`decode custom resource: ${row.name}`, () => {
    if (row.error) {
      assert.throws(
        () => decode(row.spec, row.mode),
        (err: any) => err.status?.code === 400 && row.error!.test(err.message)
      );
      return;
    }
    const { obj, warnings } = decode(row.spec, row.mode);
    assert.deepEqual(obj['spec'], row.want);
    assert.deepEqual(warnings.sort(), [...(row.warnings ?? [])].sort());
    assert.deepEqual(obj.metadata, { name: 'g', namespace: 'ns' });
  });
}

test('decode custom resource: a protobuf body is 415', () => {
  assert.throws(
    () => decode({}, 'Strict', 'application/vnd.kubernetes.protobuf'),
    (err: any) => err.status?.code === 415
  );
});
