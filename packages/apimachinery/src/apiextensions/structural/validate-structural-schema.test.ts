// validateStructuralSchema: one row per structural-schema rule (upstream
// pkg/apiserver/schema/validation.go, complete.go and the schema checks of
// pkg/apis/apiextensions/validation ValidateCustomResourceDefinitionOpenAPISchema).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage, newPath } from '../../errors/index.js';
import type { JSONSchemaProps } from '../types.js';
import { validateStructuralSchema } from '../index.js';

const P = 'openAPIV3Schema';

/** A root object schema with `spec` set to the given schema. */
const spec = (s: JSONSchemaProps): JSONSchemaProps => ({
  type: 'object',
  properties: { spec: s },
});
const S = `${P}.properties[spec]`;

interface Row {
  name: string;
  schema: JSONSchemaProps;
  want: string[];
}

const rows: Row[] = [
  // Structural schemas that pass.
  { name: 'minimal object root', schema: { type: 'object' }, want: [] },
  {
    name: 'nested objects, arrays, maps, int-or-string, preserve-unknown, embedded',
    schema: spec({
      type: 'object',
      required: ['replicas'],
      properties: {
        replicas: { type: 'integer', minimum: 0, default: 1 },
        size: { type: 'string', enum: ['S', 'M'] },
        port: { 'x-kubernetes-int-or-string': true },
        port2: {
          'x-kubernetes-int-or-string': true,
          anyOf: [{ type: 'integer' }, { type: 'string' }],
        },
        port3: {
          'x-kubernetes-int-or-string': true,
          allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: '^[0-9]+$' }],
        },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        anything: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        untyped: { 'x-kubernetes-preserve-unknown-fields': true },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
        list: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name', 'proto'],
          items: {
            type: 'object',
            required: ['name'],
            properties: {
              name: { type: 'string' },
              proto: { type: 'string', default: 'TCP' },
            },
          },
        },
        set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        atomicMap: { type: 'object', 'x-kubernetes-map-type': 'atomic' },
        choice: {
          type: 'object',
          properties: { a: { type: 'string' }, b: { type: 'string' } },
          oneOf: [{ required: ['a'] }, { required: ['b'] }],
        },
      },
    }),
    want: [],
  },
  {
    name: 'root metadata with name and generateName only',
    schema: {
      type: 'object',
      properties: {
        metadata: {
          type: 'object',
          properties: { name: { type: 'string', maxLength: 10 }, generateName: { type: 'string' } },
        },
      },
    },
    want: [],
  },
  {
    name: 'root anyOf speaking of specified properties',
    schema: {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      anyOf: [{ required: ['a'] }, { properties: { b: { minLength: 1 } } }],
    },
    want: [],
  },
  // Structural invariants (pkg/apiserver/schema/validation.go).
  {
    name: 'type required at the root',
    schema: { properties: { a: { type: 'string' } } },
    want: [`${P}.type: Required value: must not be empty at the root`],
  },
  {
    name: 'type must be object at the root',
    schema: { type: 'string' },
    want: [`${P}.type: Invalid value: "string": must be object at the root`],
  },
  {
    name: 'type required on object fields',
    schema: spec({ type: 'object', properties: { a: { description: 'no type' } } }),
    want: [
      `${S}.properties[a].type: Required value: must not be empty for specified object fields`,
    ],
  },
  {
    name: 'type required on array items',
    schema: spec({ type: 'array', items: { description: 'no type' } }),
    want: [`${S}.items.type: Required value: must not be empty for specified array items`],
  },
  {
    name: 'items required on arrays',
    schema: spec({ type: 'array' }),
    want: [`${S}.items: Required value: must be specified`],
  },
  {
    name: 'additionalProperties forbidden at the root',
    schema: { type: 'object', additionalProperties: { type: 'string' } },
    want: [`${P}.additionalProperties: Forbidden: must not be used at the root`],
  },
  {
    name: 'int-or-string with preserve-unknown-fields',
    schema: spec({
      'x-kubernetes-int-or-string': true,
      'x-kubernetes-preserve-unknown-fields': true,
    }),
    want: [
      `${S}.x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
    ],
  },
  {
    name: 'int-or-string with embedded-resource',
    schema: spec({
      type: 'object',
      'x-kubernetes-int-or-string': true,
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    }),
    want: [
      `${S}.x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
      `${S}.x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
    ],
  },
  {
    name: 'int-or-string anyOf form other than integer, string needs structural junctors',
    schema: spec({
      'x-kubernetes-int-or-string': true,
      anyOf: [{ type: 'string' }, { type: 'integer' }],
    }),
    want: [
      `${S}.anyOf[0].type: Forbidden: must be empty to be structural`,
      `${S}.anyOf[1].type: Forbidden: must be empty to be structural`,
    ],
  },
  {
    name: 'embedded-resource needs type object',
    schema: spec({
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    }),
    want: [`${S}.type: Required value: must be object if x-kubernetes-embedded-resource is true`],
  },
  {
    name: 'embedded-resource with another type',
    schema: spec({
      type: 'string',
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    }),
    want: [
      `${S}.type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
    ],
  },
  {
    name: 'embedded-resource needs properties without preserve-unknown-fields',
    schema: spec({ type: 'object', 'x-kubernetes-embedded-resource': true }),
    want: [
      `${S}.properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
    ],
  },
  {
    name: 'embedded-resource forbids additionalProperties',
    schema: spec({
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
      additionalProperties: { type: 'string' },
    }),
    want: [
      `${S}.additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set`,
    ],
  },
  {
    name: 'embedded-resource kind and apiVersion must be strings',
    schema: spec({
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      properties: { kind: { type: 'integer' }, apiVersion: { type: 'boolean' } },
    }),
    want: [
      `${S}.properties[apiVersion].type: Invalid value: "boolean": must be string`,
      `${S}.properties[kind].type: Invalid value: "integer": must be string`,
    ],
  },
  {
    name: 'embedded-resource metadata must be an object',
    schema: spec({
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      properties: { metadata: { type: 'string' } },
    }),
    want: [`${S}.properties[metadata].type: Invalid value: "string": must be object`],
  },
  {
    name: 'root metadata restricted to name and generateName',
    schema: {
      type: 'object',
      properties: {
        metadata: { type: 'object', properties: { labels: { type: 'object' } } },
      },
    },
    want: [
      `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ],
  },
  {
    name: 'root metadata must be an object',
    schema: { type: 'object', properties: { metadata: { type: 'string' } } },
    want: [`${P}.properties[metadata].type: Invalid value: "string": must be object`],
  },
  {
    name: 'root metadata without default (defaults forbidden in top-level metadata)',
    schema: { type: 'object', properties: { metadata: { type: 'object', default: {} } } },
    want: [`${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`],
  },
  {
    name: 'root kind must be a string',
    schema: { type: 'object', properties: { kind: { type: 'object' } } },
    want: [`${P}.properties[kind].type: Invalid value: "object": must be string`],
  },
  {
    name: 'invalid pattern',
    schema: spec({ type: 'string', pattern: '([a-z' }),
    want: [
      `${S}.pattern: Invalid value: "([a-z": must be a valid regular expression, but isn't: error parsing regexp: Invalid regular expression: /([a-z/: Unterminated character class`,
    ],
  },
  {
    name: 'lookahead is not RE2',
    schema: spec({ type: 'string', pattern: '^(?=a)a$' }),
    want: [
      `${S}.pattern: Invalid value: "^(?=a)a$": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: \`(?=\``,
    ],
  },
  {
    name: 'backreferences are not RE2',
    schema: spec({ type: 'string', pattern: '(a)\\1' }),
    want: [
      `${S}.pattern: Invalid value: "(a)\\\\1": must be a valid regular expression, but isn't: error parsing regexp: invalid escape sequence: \`\\1\``,
    ],
  },
  {
    name: 'RE2 patterns JavaScript reads differently compile',
    schema: spec({
      type: 'object',
      properties: {
        a: { type: 'string', pattern: '(?i)^[a-z]+$' },
        b: { type: 'string', pattern: '^a\\-b\\:c$' },
        c: { type: 'string', pattern: '\\A[[:alpha:]]+\\z' },
      },
    }),
    want: [],
  },
  // Junctors (NestedValueValidation): no type, default, title, description, nullable, extensions.
  {
    name: 'type forbidden in anyOf/allOf/oneOf/not',
    schema: spec({
      type: 'string',
      anyOf: [{ type: 'string' }],
      allOf: [{ type: 'string' }],
      oneOf: [{ type: 'string' }],
      not: { type: 'integer' },
    }),
    want: [
      `${S}.allOf[0].type: Forbidden: must be empty to be structural`,
      `${S}.anyOf[0].type: Forbidden: must be empty to be structural`,
      `${S}.not.type: Forbidden: must be empty to be structural`,
      `${S}.oneOf[0].type: Forbidden: must be empty to be structural`,
    ],
  },
  {
    name: 'default forbidden inside anyOf/allOf/oneOf/not',
    schema: spec({
      type: 'string',
      anyOf: [{ default: 'a' }],
      allOf: [{ default: 'a' }],
      oneOf: [{ default: 'a' }],
      not: { default: 'a' },
    }),
    want: [
      `${S}.allOf[0].default: Forbidden: must be undefined to be structural`,
      `${S}.anyOf[0].default: Forbidden: must be undefined to be structural`,
      `${S}.not.default: Forbidden: must be undefined to be structural`,
      `${S}.oneOf[0].default: Forbidden: must be undefined to be structural`,
    ],
  },
  {
    name: 'title, description, nullable forbidden in junctors',
    schema: spec({
      type: 'string',
      allOf: [{ title: 't', description: 'd', nullable: true }],
    }),
    want: [
      `${S}.allOf[0].description: Forbidden: must be empty to be structural`,
      `${S}.allOf[0].nullable: Forbidden: must be false to be structural`,
      `${S}.allOf[0].title: Forbidden: must be empty to be structural`,
    ],
  },
  {
    name: 'additionalProperties: false is still forbidden at the root',
    schema: { type: 'object', additionalProperties: false },
    want: [`${P}.additionalProperties: Forbidden: must not be used at the root`],
  },
  {
    name: 'additionalProperties: false allowed below the root and in junctors',
    schema: spec({
      type: 'object',
      additionalProperties: false,
      allOf: [{ additionalProperties: false }],
    }),
    want: [],
  },
  {
    name: 'additionalProperties: true forbidden in junctors',
    schema: spec({ type: 'object', anyOf: [{ additionalProperties: true }] }),
    want: [`${S}.anyOf[0].additionalProperties: Forbidden: must be undefined to be structural`],
  },
  {
    name: 'additionalProperties forbidden in junctors',
    schema: spec({ type: 'object', allOf: [{ additionalProperties: { type: 'string' } }] }),
    want: [`${S}.allOf[0].additionalProperties: Forbidden: must be undefined to be structural`],
  },
  {
    name: 'x-kubernetes extensions forbidden in junctors',
    schema: spec({
      type: 'object',
      anyOf: [
        {
          'x-kubernetes-preserve-unknown-fields': true,
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-int-or-string': true,
          'x-kubernetes-list-type': 'atomic',
          'x-kubernetes-list-map-keys': ['a'],
          'x-kubernetes-map-type': 'atomic',
          'x-kubernetes-validations': [{ rule: 'true' }],
        },
      ],
    }),
    want: [
      // The schema checks run inside junctors too.
      `${S}.anyOf[0].type: Required value: must be array if x-kubernetes-list-type is specified`,
      `${S}.anyOf[0].type: Required value: must be object if x-kubernetes-map-type is specified`,
      `${S}.anyOf[0].x-kubernetes-list-type: Invalid value: "atomic": must be map if x-kubernetes-list-map-keys is non-empty`,
      `${S}.anyOf[0].x-kubernetes-embedded-resource: Forbidden: must be false to be structural`,
      `${S}.anyOf[0].x-kubernetes-int-or-string: Forbidden: must be false to be structural`,
      `${S}.anyOf[0].x-kubernetes-list-map-keys: Forbidden: must be empty to be structural`,
      `${S}.anyOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
      `${S}.anyOf[0].x-kubernetes-map-type: Forbidden: must be undefined to be structural`,
      `${S}.anyOf[0].x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural`,
      `${S}.anyOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural`,
    ],
  },
  {
    name: 'metadata forbidden in a nested junctor context',
    schema: {
      type: 'object',
      properties: { metadata: { type: 'object' } },
      anyOf: [{ properties: { metadata: { required: ['name'] } } }],
    },
    want: [
      `${P}.anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
    ],
  },
  // Completeness (complete.go).
  {
    name: 'junctor property not specified structurally',
    schema: { type: 'object', anyOf: [{ properties: { a: { minLength: 1 } } }] },
    want: [
      `${P}.properties[a]: Required value: because it is defined in ${P}.anyOf[0].properties[a]`,
    ],
  },
  {
    name: 'junctor items not specified structurally',
    schema: {
      type: 'object',
      properties: { l: { type: 'object' } },
      allOf: [{ properties: { l: { items: { minLength: 1 } } } }],
    },
    want: [
      `${P}.properties[l].items: Required value: because it is defined in ${P}.allOf[0].properties[l].items`,
    ],
  },
  // Schema checks of ValidateCustomResourceDefinitionOpenAPISchema.
  {
    name: 'uniqueItems: true forbidden',
    schema: spec({ type: 'array', uniqueItems: true, items: { type: 'string' } }),
    want: [
      `${S}.uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
    ],
  },
  {
    name: 'additionalProperties and properties are mutually exclusive',
    schema: spec({
      type: 'object',
      properties: { a: { type: 'string' } },
      additionalProperties: { type: 'string' },
    }),
    want: [
      `${S}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
    ],
  },
  {
    name: 'additionalProperties: false with properties',
    schema: spec({
      type: 'object',
      properties: { a: { type: 'string' } },
      additionalProperties: false,
    }),
    want: [
      `${S}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
    ],
  },
  {
    name: '$ref not supported',
    schema: spec({ $ref: '#/definitions/x' }),
    want: [`${S}.$ref: Forbidden: $ref is not supported`],
  },
  {
    name: 'id not supported',
    schema: spec({ type: 'string', id: 'x' }),
    want: [`${S}.id: Forbidden: id is not supported`],
  },
  {
    name: 'additionalItems not supported',
    schema: spec({ type: 'array', items: { type: 'string' }, additionalItems: false }),
    want: [`${S}.additionalItems: Forbidden: additionalItems is not supported`],
  },
  {
    name: 'patternProperties not supported',
    schema: spec({ type: 'object', patternProperties: { '^a': { type: 'string' } } }),
    want: [`${S}.patternProperties: Forbidden: patternProperties is not supported`],
  },
  {
    name: 'dependencies not supported',
    schema: spec({ type: 'object', dependencies: { a: ['b'] } }),
    want: [`${S}.dependencies: Forbidden: dependencies is not supported`],
  },
  {
    name: 'definitions not supported',
    schema: spec({ type: 'object', definitions: { a: { type: 'string' } } }),
    want: [`${S}.definitions: Forbidden: definitions is not supported`],
  },
  {
    name: '$schema: only the conversion error (no schema check covers it)',
    schema: spec({ type: 'object', $schema: 'http://json-schema.org/draft-04/schema#' }),
    want: [`${P}: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`],
  },
  {
    name: 'items as an array of schemas',
    schema: spec({ type: 'array', items: [{ type: 'string' }] }),
    want: [`${S}.items: Forbidden: items must be a schema object and not an array`],
  },
  {
    name: 'type null',
    schema: spec({ type: 'null' }),
    want: [
      `${S}.type: Forbidden: type cannot be set to null, use nullable as an alternative`,
      `${S}.type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
    ],
  },
  {
    name: 'unknown type',
    schema: spec({ type: 'int' }),
    want: [
      `${S}.type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"`,
    ],
  },
  {
    name: 'preserve-unknown-fields: false',
    schema: spec({ type: 'object', 'x-kubernetes-preserve-unknown-fields': false }),
    want: [
      `${S}.x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
    ],
  },
  {
    name: 'embedded-resource inside resource meta',
    schema: {
      type: 'object',
      properties: {
        kind: { type: 'string', 'x-kubernetes-embedded-resource': true },
      },
    },
    want: [
      `${P}.properties[kind].x-kubernetes-embedded-resource: Forbidden: must not be used inside of resource meta`,
      `${P}.properties[kind].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
      `${P}.properties[kind].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
    ],
  },
  {
    name: 'map-type needs type object',
    schema: spec({ type: 'string', 'x-kubernetes-map-type': 'atomic' }),
    want: [
      `${S}.type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`,
    ],
  },
  {
    name: 'map-type unsupported value',
    schema: spec({ type: 'object', 'x-kubernetes-map-type': 'merge' }),
    want: [
      `${S}.x-kubernetes-map-type: Unsupported value: "merge": supported values: "atomic", "granular"`,
    ],
  },
  {
    name: 'list-type needs type array',
    schema: spec({ type: 'object', 'x-kubernetes-list-type': 'set' }),
    want: [
      `${S}.type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`,
    ],
  },
  {
    name: 'list-type unsupported value',
    schema: spec({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' }),
    want: [
      `${S}.x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
    ],
  },
  {
    name: 'list-type set of objects needs atomic map-type items',
    schema: spec({
      type: 'array',
      'x-kubernetes-list-type': 'set',
      items: { type: 'object', properties: { a: { type: 'string' } } },
    }),
    want: [
      `${S}.items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set`,
    ],
  },
  {
    name: 'list-type set of lists needs atomic items',
    schema: spec({
      type: 'array',
      'x-kubernetes-list-type': 'set',
      items: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
    }),
    want: [
      `${S}.items.x-kubernetes-list-type: Invalid value: "set": must be atomic as item of a list with x-kubernetes-list-type=set`,
    ],
  },
  {
    name: 'list-type set items not nullable',
    schema: spec({
      type: 'array',
      'x-kubernetes-list-type': 'set',
      items: { type: 'string', nullable: true },
    }),
    want: [`${S}.items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set`],
  },
  {
    name: 'list-map-keys needs list-type',
    schema: spec({
      type: 'array',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', properties: { name: { type: 'string' } } },
    }),
    want: [
      `${S}.x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`,
    ],
  },
  {
    name: 'list-map-keys needs list-type map',
    schema: spec({
      type: 'array',
      'x-kubernetes-list-type': 'atomic',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', properties: { name: { type: 'string' } } },
    }),
    want: [
      `${S}.x-kubernetes-list-type: Invalid value: "atomic": must be map if x-kubernetes-list-map-keys is non-empty`,
    ],
  },
  {
    name: 'list-type map needs list-map-keys',
    schema: spec({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      items: { type: 'object', properties: { name: { type: 'string' } } },
    }),
    want: [
      `${S}.x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
    ],
  },
  {
    name: 'list-type map needs object items',
    schema: spec({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'string' },
    }),
    want: [
      `${S}.items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`,
    ],
  },
  {
    name: 'list-map-keys must name item properties',
    schema: spec({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['id'],
      items: { type: 'object', properties: { name: { type: 'string' } } },
    }),
    want: [
      `${S}.x-kubernetes-list-map-keys: Invalid value: ["id"]: entries must all be names of item properties`,
    ],
  },
  {
    name: 'list-map-keys must be scalar properties',
    schema: spec({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'object' } },
      },
    }),
    want: [
      `${S}.items.properties[name].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
    ],
  },
  {
    name: 'list-map-keys without duplicates',
    schema: spec({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name', 'name'],
      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    }),
    want: [
      `${S}.x-kubernetes-list-map-keys: Invalid value: ["name","name"]: must not contain duplicate entries`,
    ],
  },
  {
    name: 'list-map-keys must be required or defaulted, not nullable',
    schema: spec({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', properties: { name: { type: 'string', nullable: true } } },
    }),
    want: [
      `${S}.items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
      `${S}.items.properties[name].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable`,
    ],
  },
  // x-kubernetes-validations shapes (compiling the rules is CEL's part).
  {
    name: 'validation rule shapes',
    schema: spec({
      type: 'object',
      'x-kubernetes-validations': [
        { rule: ' ' },
        { rule: 'self.a', message: '  ' },
        { rule: 'self.a', message: 'two\nlines' },
        { rule: 'self.a ||\nself.b' },
        { rule: 'self.a', messageExpression: ' ', reason: 'FieldValueWrong' },
        { rule: 'self.a', fieldPath: ' ' },
        { rule: 'self.a', fieldPath: '.a\n' },
        { rule: 'self.a', message: 'ok', reason: 'FieldValueForbidden', fieldPath: '.a' },
      ],
    }),
    want: [
      `${S}.x-kubernetes-validations[0].rule: Required value: rule is not specified`,
      `${S}.x-kubernetes-validations[1].message: Invalid value: "  ": must be non-empty if specified`,
      `${S}.x-kubernetes-validations[2].message: Invalid value: "two\\nlines": must not contain line breaks`,
      `${S}.x-kubernetes-validations[3].message: Required value: message must be specified if rule contains line breaks`,
      `${S}.x-kubernetes-validations[4].messageExpression: Required value: messageExpression must be non-empty if specified`,
      `${S}.x-kubernetes-validations[4].reason: Unsupported value: "FieldValueWrong": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      `${S}.x-kubernetes-validations[5].fieldPath: Invalid value: " ": must be non-empty if specified`,
      `${S}.x-kubernetes-validations[6].fieldPath: Invalid value: ".a\\n": must not contain line breaks`,
    ],
  },
];

for (const row of rows) {
  test(`validateStructuralSchema: ${row.name}`, () => {
    const got = validateStructuralSchema(row.schema, newPath(P)).map(fieldErrorMessage);
    assert.deepEqual([...got].sort(), [...row.want].sort());
  });
}

test('validateStructuralSchema: does not change the schema it checks', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: { metadata: { type: 'object', properties: { name: { type: 'string' } } } },
  };
  const before = structuredClone(schema);
  assert.deepEqual(validateStructuralSchema(schema, newPath(P)), []);
  assert.deepEqual(schema, before);
});
