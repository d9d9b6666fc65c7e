import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceDefinition, JSONSchemaProps } from '../types.js';
import {
  customResourceListOpenAPISchema,
  customResourceOpenAPISchema,
} from './custom-resource-openapi-schema.js';

function crdWith(
  schema: JSONSchemaProps | undefined,
  extra: Partial<CustomResourceDefinition['spec']> = {}
): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          ...(schema ? { schema: { openAPIV3Schema: schema } } : {}),
          selectableFields: [{ jsonPath: '.spec.cronSpec' }],
        },
      ],
      ...extra,
    },
  };
}

const cronTab: JSONSchemaProps = {
  type: 'object',
  description: 'CronTab runs a command on a schedule.',
  properties: {
    metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } },
    spec: {
      type: 'object',
      description: 'The schedule and the command.',
      required: ['cronSpec', 'note'],
      'x-kubernetes-validations': [{ rule: 'self.replicas >= 0', message: 'no negative' }],
      properties: {
        cronSpec: { type: 'string', description: 'A cron expression.', pattern: '^\\S+$' },
        replicas: { type: 'integer', default: 1, minimum: 0 },
        port: { 'x-kubernetes-int-or-string': true, description: 'A port, number or name.' },
        note: { type: 'string', nullable: true },
        mode: { type: 'string', oneOf: [{ enum: ['a'] }, { enum: ['b'] }] },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string' }, port: { type: 'integer' } },
          },
        },
        labels: {
          type: 'object',
          'x-kubernetes-map-type': 'atomic',
          additionalProperties: { type: 'string' },
        },
        anything: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { a: { type: 'string' } },
        },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } },
        },
      },
    },
  },
};

describe('customResourceOpenAPISchema', () => {
  it('v3: the schema as written, with TypeMeta, ObjectMeta, the GVK and the selectable fields', () => {
    const s: any = customResourceOpenAPISchema(crdWith(cronTab), 'v1', { v2: false });
    assert.equal(s.description, 'CronTab runs a command on a schedule.');
    assert.deepEqual(s['x-kubernetes-group-version-kind'], [
      { group: 'stable.example.com', kind: 'CronTab', version: 'v1' },
    ]);
    assert.deepEqual(s['x-kubernetes-selectable-fields'], [{ fieldPath: 'spec.cronSpec' }]);
    // metadata is replaced by the ObjectMeta reference, as upstream's SetProperty.
    assert.deepEqual(s.properties.metadata.allOf, [
      { $ref: '#/components/schemas/io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
    ]);
    assert.match(s.properties.metadata.description, /Standard object's metadata/);
    assert.equal(s.properties.apiVersion.type, 'string');
    assert.match(s.properties.kind.description, /^Kind is a string value/);
    const spec = s.properties.spec;
    assert.equal(spec.properties.cronSpec.description, 'A cron expression.');
    assert.equal(spec.properties.replicas.default, 1);
    assert.equal(spec.properties.note.nullable, true);
    assert.deepEqual(spec.required, ['cronSpec', 'note']);
    assert.deepEqual(spec.properties.mode.oneOf, [{ enum: ['a'] }, { enum: ['b'] }]);
    assert.deepEqual(spec['x-kubernetes-validations'], [
      { rule: 'self.replicas >= 0', message: 'no negative' },
    ]);
    assert.equal(spec.properties.ports['x-kubernetes-list-type'], 'map');
    assert.deepEqual(spec.properties.ports['x-kubernetes-list-map-keys'], ['name']);
    assert.equal(spec.properties.labels['x-kubernetes-map-type'], 'atomic');
    // Unfold: int-or-string spelled as anyOf.
    assert.deepEqual(spec.properties.port.anyOf, [{ type: 'integer' }, { type: 'string' }]);
    assert.equal(spec.properties.anything.properties.a.type, 'string');
    // addEmbeddedProperties.
    const tpl = spec.properties.template;
    assert.deepEqual(Object.keys(tpl.properties).sort(), [
      'apiVersion',
      'kind',
      'metadata',
      'spec',
    ]);
    assert.deepEqual(tpl.required, ['kind', 'apiVersion']);
  });

  it("v2: junctors, nullable, defaults and preserved nodes' properties stripped (ToStructuralOpenAPIV2)", () => {
    const s: any = customResourceOpenAPISchema(crdWith(cronTab), 'v1', { v2: true });
    assert.deepEqual(s.properties.metadata, {
      description: s.properties.metadata.description,
      $ref: '#/definitions/io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta',
    });
    const spec = s.properties.spec;
    assert.equal(spec.properties.replicas.default, undefined);
    assert.equal(spec.properties.replicas.minimum, 0);
    assert.deepEqual(spec.properties.note, {});
    assert.deepEqual(spec.required, ['cronSpec'], 'a nullable property is not required in v2');
    assert.deepEqual(spec.properties.mode, { type: 'string' });
    assert.deepEqual(spec.properties.port, {
      'x-kubernetes-int-or-string': true,
      description: 'A port, number or name.',
    });
    assert.deepEqual(spec.properties.anything, { 'x-kubernetes-preserve-unknown-fields': true });
    assert.equal(spec.properties.ports.items.properties.port.type, 'integer');
    // The original schema is not touched.
    assert.equal(
      (cronTab.properties?.['spec']?.properties?.['replicas'] as JSONSchemaProps).default,
      1
    );
    assertKubectlV2Structure(s);
  });

  const rows: {
    name: string;
    schema: JSONSchemaProps | undefined;
    v2: boolean;
    preserveUnknownFields?: boolean;
    want: (s: any) => void;
  }[] = [
    {
      name: 'no schema: an open object with the GVK only',
      schema: undefined,
      v2: false,
      want: (s) =>
        assert.deepEqual(Object.keys(s).sort(), [
          'type',
          'x-kubernetes-group-version-kind',
          'x-kubernetes-selectable-fields',
        ]),
    },
    {
      name: 'v2, root preserving unknown fields: an open object (kubectl would reject the unknown)',
      schema: {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        properties: { spec: { type: 'object' } },
      },
      v2: true,
      want: (s) => assert.equal(s.properties, undefined),
    },
    {
      name: 'v3, root preserving unknown fields: kept with its properties',
      schema: {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        properties: { spec: { type: 'object' } },
      },
      v2: false,
      want: (s) => assert.equal(s.properties.spec.type, 'object'),
    },
    {
      name: 'v2, spec.preserveUnknownFields: an open object',
      schema: cronTab,
      v2: true,
      preserveUnknownFields: true,
      want: (s) => assert.equal(s.properties, undefined),
    },
    {
      name: 'v2, an array under preserve-unknown-fields loses its items and then its type',
      schema: {
        type: 'object',
        properties: {
          list: {
            type: 'array',
            'x-kubernetes-preserve-unknown-fields': true,
            items: { type: 'string' },
          },
        },
      },
      v2: true,
      want: (s) =>
        assert.deepEqual(s.properties.list, { 'x-kubernetes-preserve-unknown-fields': true }),
    },
    {
      name: 'v2, nullable additionalProperties drop required',
      schema: {
        type: 'object',
        properties: {
          m: {
            type: 'object',
            required: ['a'],
            additionalProperties: { type: 'string', nullable: true },
          },
        },
      },
      v2: true,
      want: (s) => assert.equal(s.properties.m.required, undefined),
    },
    {
      name: 'v3, int-or-string with an anyOf of its own: the pattern prepended to allOf',
      schema: {
        type: 'object',
        properties: {
          p: { 'x-kubernetes-int-or-string': true, anyOf: [{ maximum: 3 }, { pattern: 'x' }] },
        },
      },
      v2: false,
      want: (s) =>
        assert.deepEqual(s.properties.p.allOf, [
          { anyOf: [{ type: 'integer' }, { type: 'string' }] },
        ]),
    },
    {
      name: 'v3, int-or-string already spelled out: unchanged',
      schema: {
        type: 'object',
        properties: {
          p: {
            'x-kubernetes-int-or-string': true,
            anyOf: [{ type: 'integer' }, { type: 'string' }],
          },
        },
      },
      v2: false,
      want: (s) => assert.equal(s.properties.p.allOf, undefined),
    },
    {
      name: 'v2, embedded resource under preserve-unknown-fields: no metadata added',
      schema: {
        type: 'object',
        properties: {
          e: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            'x-kubernetes-preserve-unknown-fields': true,
          },
        },
      },
      v2: true,
      want: (s) => assert.equal(s.properties.e.properties, undefined),
    },
    {
      name: 'v3, embedded resource under preserve-unknown-fields: metadata added',
      schema: {
        type: 'object',
        properties: {
          e: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            'x-kubernetes-preserve-unknown-fields': true,
          },
        },
      },
      v2: false,
      want: (s) => assert.ok(s.properties.e.properties.metadata),
    },
  ];
  for (const row of rows)
    it(row.name, () =>
      row.want(
        customResourceOpenAPISchema(
          crdWith(row.schema, row.preserveUnknownFields ? { preserveUnknownFields: true } : {}),
          'v1',
          { v2: row.v2 }
        )
      )
    );

  it('throws for a version the CRD does not have', () => {
    assert.throws(
      () => customResourceOpenAPISchema(crdWith(cronTab), 'v9', { v2: true }),
      /version v9 not found/
    );
  });
});

describe('customResourceListOpenAPISchema', () => {
  for (const v2 of [true, false])
    it(`the list kind (${v2 ? 'v2' : 'v3'})`, () => {
      const s: any = customResourceListOpenAPISchema(crdWith(cronTab), 'v1', {
        v2,
        kindDefinition: 'com.example.stable.v1.CronTab',
      });
      assert.equal(s.description, 'CronTabList is a list of CronTab');
      assert.deepEqual(s.required, ['items']);
      const prefix = v2 ? '#/definitions/' : '#/components/schemas/';
      assert.deepEqual(s.properties.items.items, {
        $ref: `${prefix}com.example.stable.v1.CronTab`,
      });
      assert.deepEqual(s['x-kubernetes-group-version-kind'], [
        { group: 'stable.example.com', kind: 'CronTabList', version: 'v1' },
      ]);
      assertKubectlV2Structure(v2 ? s : {});
    });
});

/**
 * What kubectl's OpenAPI v2 reader (kube-openapi pkg/util/proto document.go) accepts: every
 * node a reference, or typed with a known type or untyped; an array has items; no v3-only
 * keywords (nullable, oneOf, anyOf, allOf, not).
 */
function assertKubectlV2Structure(s: any, path = '$'): void {
  for (const k of ['nullable', 'oneOf', 'anyOf', 'allOf', 'not'])
    assert.equal(s[k], undefined, `${path}: ${k} in v2`);
  if (s.$ref !== undefined) {
    assert.match(s.$ref, /^#\/definitions\//, path);
    return;
  }
  if (s.type !== undefined)
    assert.ok(
      ['object', 'array', 'string', 'integer', 'number', 'boolean'].includes(s.type),
      `${path}: type ${s.type}`
    );
  if (s.type === 'array') assert.ok(s.items, `${path}: array without items`);
  for (const [k, v] of Object.entries(s.properties ?? {}))
    assertKubectlV2Structure(v, `${path}.${k}`);
  if (s.items) assertKubectlV2Structure(s.items, `${path}[]`);
  if (typeof s.additionalProperties === 'object')
    assertKubectlV2Structure(s.additionalProperties, `${path}{}`);
}
