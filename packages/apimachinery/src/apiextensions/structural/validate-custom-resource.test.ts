// validateCustomResource: upstream ValidateCustomResource over kube-openapi validate, a row per
// keyword and per format, plus the list-type set/map uniqueness checks (listtype) and the
// embedded-resource checks (objectmeta).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage, newPath } from '../../errors/index.js';
import type { JSONSchemaProps } from '../types.js';
import { supportedStringFormats, validateCustomResource } from '../index.js';

/** A schema with `spec.<field>` of the given schema. */
const field = (f: JSONSchemaProps, name = 'f'): JSONSchemaProps => ({
  type: 'object',
  properties: { spec: { type: 'object', properties: { [name]: f } } },
});

interface Row {
  name: string;
  schema: JSONSchemaProps;
  obj: unknown;
  want: string[];
}

const f = (v: unknown): unknown => ({ spec: { f: v } });

const rows: Row[] = [
  // type
  {
    name: 'type integer: a string',
    schema: field({ type: 'integer' }, 'replicas'),
    obj: { spec: { replicas: 'three' } },
    want: [
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ],
  },
  {
    name: 'type integer: a fraction',
    schema: field({ type: 'integer' }),
    obj: f(1.5),
    want: ['spec.f: Invalid value: "number": spec.f in body must be of type integer: "number"'],
  },
  { name: 'type number: an integer', schema: field({ type: 'number' }), obj: f(2), want: [] },
  {
    name: 'type string: a boolean',
    schema: field({ type: 'string' }),
    obj: f(true),
    want: ['spec.f: Invalid value: "boolean": spec.f in body must be of type string: "boolean"'],
  },
  {
    name: 'type boolean: a string',
    schema: field({ type: 'boolean' }),
    obj: f('true'),
    want: ['spec.f: Invalid value: "string": spec.f in body must be of type boolean: "string"'],
  },
  {
    name: 'type object: an array',
    schema: field({ type: 'object' }),
    obj: f([]),
    want: ['spec.f: Invalid value: "array": spec.f in body must be of type object: "array"'],
  },
  {
    name: 'type array: an object',
    schema: field({ type: 'array', items: { type: 'string' } }),
    obj: f({}),
    want: ['spec.f: Invalid value: "object": spec.f in body must be of type array: "object"'],
  },
  {
    name: 'null where not nullable',
    schema: field({ type: 'string' }),
    obj: f(null),
    want: ['spec.f: Invalid value: "null": spec.f in body must be of type string: "null"'],
  },
  {
    name: 'nullable: null',
    schema: field({ type: 'string', nullable: true }),
    obj: f(null),
    want: [],
  },
  {
    name: 'int-or-string: integer and string pass',
    schema: {
      type: 'object',
      properties: {
        a: { 'x-kubernetes-int-or-string': true },
        b: { 'x-kubernetes-int-or-string': true },
      },
    },
    obj: { a: 80, b: 'http' },
    want: [],
  },
  {
    name: 'int-or-string: a boolean',
    schema: field({ 'x-kubernetes-int-or-string': true }),
    obj: f(false),
    want: [
      'spec.f: Invalid value: "boolean": spec.f in body must be of type integer,string: "boolean"',
    ],
  },
  {
    name: 'no type: anything',
    schema: field({ 'x-kubernetes-preserve-unknown-fields': true }),
    obj: f([1, 'a']),
    want: [],
  },
  // enum
  {
    name: 'enum: unsupported value',
    schema: field({ type: 'string', enum: ['S', 'M'] }, 'size'),
    obj: { spec: { size: 'XL' } },
    want: ['spec.size: Unsupported value: "XL": supported values: "S", "M"'],
  },
  {
    name: 'enum: non-string values are listed as JSON',
    schema: field({ type: 'integer', enum: [1, 2] }),
    obj: f(3),
    want: ['spec.f: Unsupported value: 3: supported values: "1", "2"'],
  },
  {
    name: 'enum: a listed value',
    schema: field({ type: 'string', enum: ['S', 'M'] }),
    obj: f('M'),
    want: [],
  },
  // numbers
  {
    name: 'maximum',
    schema: field({ type: 'integer', maximum: 10 }),
    obj: f(11),
    want: ['spec.f: Invalid value: 11: spec.f in body should be less than or equal to 10'],
  },
  {
    name: 'maximum: equal passes',
    schema: field({ type: 'integer', maximum: 10 }),
    obj: f(10),
    want: [],
  },
  {
    name: 'exclusiveMaximum',
    schema: field({ type: 'integer', maximum: 10, exclusiveMaximum: true }),
    obj: f(10),
    want: ['spec.f: Invalid value: 10: spec.f in body should be less than 10'],
  },
  {
    name: 'minimum',
    schema: field({ type: 'number', minimum: 0.5 }),
    obj: f(0.25),
    want: ['spec.f: Invalid value: 0.25: spec.f in body should be greater than or equal to 0.5'],
  },
  {
    name: 'exclusiveMinimum',
    schema: field({ type: 'integer', minimum: 0, exclusiveMinimum: true }),
    obj: f(0),
    want: ['spec.f: Invalid value: 0: spec.f in body should be greater than 0'],
  },
  {
    name: 'multipleOf',
    schema: field({ type: 'integer', multipleOf: 5 }),
    obj: f(12),
    want: ['spec.f: Invalid value: 12: spec.f in body should be a multiple of 5'],
  },
  {
    name: 'multipleOf: fractions',
    schema: field({ type: 'number', multipleOf: 0.1 }),
    obj: f(0.3),
    want: [],
  },
  // strings
  {
    name: 'maxLength',
    schema: field({ type: 'string', maxLength: 3 }),
    obj: f('abcd'),
    want: ['spec.f: Too long: may not be more than 3 bytes'],
  },
  {
    name: 'maxLength counts characters',
    schema: field({ type: 'string', maxLength: 2 }),
    obj: f('éé'),
    want: [],
  },
  {
    name: 'minLength',
    schema: field({ type: 'string', minLength: 2 }),
    obj: f('a'),
    want: ['spec.f: Invalid value: "a": spec.f in body should be at least 2 chars long'],
  },
  {
    name: 'pattern',
    schema: field({ type: 'string', pattern: '^[a-z]+$' }),
    obj: f('ABC'),
    want: [`spec.f: Invalid value: "ABC": spec.f in body should match '^[a-z]+$'`],
  },
  {
    name: 'pattern: a match',
    schema: field({ type: 'string', pattern: '^[a-z]+$' }),
    obj: f('abc'),
    want: [],
  },
  {
    name: 'pattern: RE2 inline flags',
    schema: field({ type: 'string', pattern: '(?i)^[a-z]+$' }),
    obj: f('ABC'),
    want: [],
  },
  {
    name: 'pattern: RE2 \\A, \\z and [:digit:]',
    schema: field({ type: 'string', pattern: '\\A[[:digit:]]+\\z' }),
    obj: f('12\n'),
    want: [`spec.f: Invalid value: "12\\n": spec.f in body should match '\\A[[:digit:]]+\\z'`],
  },
  {
    name: 'pattern: escaped punctuation outside classes',
    schema: field({ type: 'string', pattern: '^a\\-b$' }),
    obj: f('a-b'),
    want: [],
  },
  // arrays
  {
    name: 'minItems',
    schema: field({ type: 'array', minItems: 2, items: { type: 'string' } }),
    obj: f(['a']),
    want: ['spec.f: Invalid value: 1: spec.f in body should have at least 2 items'],
  },
  {
    name: 'maxItems',
    schema: field({ type: 'array', maxItems: 1, items: { type: 'string' } }),
    obj: f(['a', 'b']),
    want: ['spec.f: Too many: 2: must have at most 1 items'],
  },
  {
    name: 'uniqueItems',
    schema: field({ type: 'array', uniqueItems: true, items: { type: 'object' } }),
    obj: f([
      { a: 1, b: 2 },
      { b: 2, a: 1 },
    ]),
    want: [`spec.f: Invalid value: "": spec.f in body shouldn't contain duplicates`],
  },
  {
    name: 'items: each item checked, paths indexed',
    schema: field({
      type: 'array',
      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    }),
    obj: f([{ name: 'a' }, { name: 3 }, {}]),
    want: [
      'spec.f[1].name: Invalid value: "integer": spec.f[1].name in body must be of type string: "integer"',
      'spec.f[2].name: Required value',
    ],
  },
  // objects
  {
    name: 'required',
    schema: field(
      { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      'x'
    ),
    obj: { spec: { x: {} } },
    want: ['spec.x.name: Required value'],
  },
  {
    name: 'required at the top of spec',
    schema: {
      type: 'object',
      properties: {
        spec: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      },
    },
    obj: { spec: {} },
    want: ['spec.name: Required value'],
  },
  {
    name: 'minProperties',
    schema: field({ type: 'object', minProperties: 2, additionalProperties: { type: 'string' } }),
    obj: f({ a: 'x' }),
    want: ['spec.f: Invalid value: 1: spec.f in body should have at least 2 properties'],
  },
  {
    name: 'maxProperties',
    schema: field({ type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } }),
    obj: f({ a: 'x', b: 'y' }),
    want: ['spec.f: Too many: 2: must have at most 1 items'],
  },
  {
    name: 'additionalProperties schema checks each value',
    schema: field({ type: 'object', additionalProperties: { type: 'integer' } }),
    obj: f({ a: 1, b: 'two' }),
    want: ['spec.f.b: Invalid value: "string": spec.f.b in body must be of type integer: "string"'],
  },
  {
    name: 'additionalProperties: false',
    schema: field({ type: 'object', additionalProperties: false }),
    obj: f({ a: 1 }),
    want: ['spec.f: Invalid value: "a": spec.f.a in body is a forbidden property'],
  },
  // junctors
  {
    name: 'allOf',
    schema: field({ type: 'string', allOf: [{ minLength: 2 }, { maxLength: 5 }] }),
    obj: f('a'),
    want: [
      '<nil>: Invalid value: "": "spec.f" must validate all the schemas (allOf)',
      'spec.f: Invalid value: "a": spec.f in body should be at least 2 chars long',
    ],
  },
  {
    name: 'anyOf',
    schema: field({ type: 'string', anyOf: [{ pattern: '^a' }, { pattern: '^b' }] }),
    obj: f('c'),
    want: [
      '<nil>: Invalid value: "": "spec.f" must validate at least one schema (anyOf)',
      `spec.f: Invalid value: "c": spec.f in body should match '^a'`,
    ],
  },
  {
    name: 'anyOf: one matches',
    schema: field({ type: 'string', anyOf: [{ pattern: '^a' }, { pattern: '^b' }] }),
    obj: f('b'),
    want: [],
  },
  {
    name: 'oneOf: none',
    schema: field({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      oneOf: [{ required: ['a'] }, { required: ['b'] }],
    }),
    obj: f({}),
    want: [
      '<nil>: Invalid value: "": "spec.f" must validate one and only one schema (oneOf). Found none valid',
      'spec.f.a: Required value',
    ],
  },
  {
    name: 'oneOf: two',
    schema: field({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      oneOf: [{ required: ['a'] }, { required: ['b'] }],
    }),
    obj: f({ a: 'x', b: 'y' }),
    want: [
      '<nil>: Invalid value: "": "spec.f" must validate one and only one schema (oneOf). Found 2 valid alternatives',
    ],
  },
  {
    name: 'not',
    schema: field({ type: 'string', not: { enum: ['forbidden'] } }),
    obj: f('forbidden'),
    want: ['<nil>: Invalid value: "": "spec.f" must not validate the schema (not)'],
  },
  // list-type set and map (listtype.ValidateListSetsAndMaps)
  {
    name: 'list-type set: duplicates',
    schema: field({ type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } }),
    obj: f(['a', 'b', 'a', 'a', 'b']),
    want: ['spec.f[2]: Duplicate value: "a"', 'spec.f[4]: Duplicate value: "b"'],
  },
  {
    name: 'list-type map: duplicate keys',
    schema: field({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name', 'protocol'],
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          protocol: { type: 'string' },
          port: { type: 'integer' },
        },
      },
    }),
    obj: f([
      { name: 'a', protocol: 'TCP', port: 1 },
      { name: 'a', protocol: 'UDP', port: 2 },
      { name: 'a', protocol: 'TCP', port: 3 },
    ]),
    want: ['spec.f[2]: Duplicate value: {"name":"a","protocol":"TCP"}'],
  },
  {
    name: 'list-type map: items must be objects',
    schema: field({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', properties: { name: { type: 'string' } } },
    }),
    obj: f(['x']),
    want: [
      'spec.f[0]: Invalid value: "string": spec.f[0] in body must be of type object: "string"',
      'spec.f[0]: Invalid value: "x": must be an object for an array of list-type map',
    ],
  },
  {
    name: 'list-type set inside a map value',
    schema: field({
      type: 'object',
      additionalProperties: {
        type: 'array',
        'x-kubernetes-list-type': 'set',
        items: { type: 'integer' },
      },
    }),
    obj: f({ k: [1, 1] }),
    want: ['spec.f[k][1]: Duplicate value: 1'],
  },
  // embedded resources (objectmeta.Validate)
  {
    name: 'embedded resource: apiVersion and kind required',
    schema: field({
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    }),
    obj: f({ metadata: { name: 'x' } }),
    want: ['spec.f.apiVersion: Required value', 'spec.f.kind: Required value'],
  },
  {
    name: 'embedded resource: bad apiVersion, kind and metadata.name',
    schema: field({
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    }),
    obj: f({ apiVersion: 'a/b/c', kind: 'Not_A_Kind', metadata: { name: 'a/b' } }),
    want: [
      'spec.f.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      `spec.f.kind: Invalid value: "Not_A_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      `spec.f.metadata.name: Invalid value: "a/b": may not contain '/'`,
    ],
  },
  {
    name: 'embedded resource: a good one, name may be empty',
    schema: field({
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    }),
    obj: f({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { labels: { a: 'b' } } }),
    want: [],
  },
];

for (const row of rows) {
  test(`validateCustomResource: ${row.name}`, () => {
    const got = validateCustomResource(row.obj, row.schema).map(fieldErrorMessage);
    assert.deepEqual([...got].sort(), [...row.want].sort());
  });
}

// Formats: a valid and an invalid value for every format upstream checks.
const formatRows: [format: string, good: string, bad: string][] = [
  ['bsonobjectid', '507f1f77bcf86cd799439011', '507f1f77'],
  ['uri', 'https://example.com/a?b=c', 'not a uri'],
  ['email', 'user@example.com', 'user.example.com'],
  ['hostname', 'my-host.example.com', 'bad_host!'],
  ['ipv4', '10.0.0.1', '10.0.0.256'],
  ['ipv6', '2001:db8::1', '2001:db8::g'],
  ['cidr', '10.0.0.0/8', '10.0.0.0/33'],
  ['mac', '01:23:45:67:89:ab', '01:23:45:67:89'],
  ['uuid', 'a8098c1a-f86e-11da-bd1a-00112444be1e', 'a8098c1a-f86e'],
  ['uuid3', 'bcd02e22-68f0-3046-a512-327cca9def8f', 'a8098c1a-f86e-11da-bd1a-00112444be1e'],
  ['uuid4', '713ae7e3-cb32-45f9-adcb-7c4fa86b90c1', 'a8098c1a-f86e-11da-bd1a-00112444be1e'],
  ['uuid5', 'aadf2d2c-a4d4-5f2f-92a7-2c9e4f8b6f58', 'a8098c1a-f86e-11da-bd1a-00112444be1e'],
  ['isbn', '0321751043', '0321751044'],
  ['isbn10', '0321751043', '978-0321751041'],
  ['isbn13', '978-0321751041', '0321751043'],
  ['creditcard', '4111 1111 1111 1111', '1234'],
  ['ssn', '111-11-1111', '111-111-111'],
  ['hexcolor', '#FFAA00', '#GG0000'],
  ['rgbcolor', 'rgb(255,255,255)', 'rgb(256,0,0)'],
  ['byte', 'aGVsbG8=', 'not base64!'],
  ['password', 'anything', ''],
  ['date', '2024-02-29', '2023-02-29'],
  ['duration', '1h30m', '1 fortnight'],
  ['datetime', '2024-01-02T03:04:05Z', '2024-01-02 25:00'],
  ['date-time', '2024-01-02T03:04:05.123+02:00', 'yesterday'],
  ['k8s-short-name', 'my-name', 'My.Name'],
  ['k8s-long-name', 'my.name', 'My_Name'],
];

for (const [format, good, bad] of formatRows) {
  test(`validateCustomResource: format ${format}`, () => {
    const schema = field({ type: 'string', format });
    assert.deepEqual(validateCustomResource(f(good), schema).map(fieldErrorMessage), [], good);
    const want =
      format === 'password'
        ? []
        : [
            `spec.f: Invalid value: ${JSON.stringify(bad)}: spec.f in body must be of type ${format.replaceAll('-', '')}: ${JSON.stringify(bad)}`,
          ];
    assert.deepEqual(validateCustomResource(f(bad), schema).map(fieldErrorMessage), want, bad);
  });
}

test('validateCustomResource: every format upstream checks has a row', () => {
  const covered = new Set(formatRows.map(([fmt]) => fmt.replaceAll('-', '')));
  for (const fmt of supportedStringFormats) assert.ok(covered.has(fmt), fmt);
});

test('validateCustomResource: numeric and unknown formats are stripped, as upstream does', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      i32: { type: 'integer', format: 'int32' },
      i64: { type: 'integer', format: 'int64' },
      fl: { type: 'number', format: 'float' },
      db: { type: 'number', format: 'double' },
      custom: { type: 'string', format: 'my-format' },
      wrongType: { type: 'integer', format: 'uuid' },
    },
  };
  const obj = { i32: 2 ** 40, i64: 1, fl: 1e300, db: 0.5, custom: '!!', wrongType: 5 };
  assert.deepEqual(validateCustomResource(obj, schema), []);
});

test('validateCustomResource: a path argument prefixes every field', () => {
  const schema = field({ type: 'integer', minimum: 1 }, 'replicas');
  const got = validateCustomResource({ spec: { replicas: 0 } }, schema, newPath('object'));
  assert.deepEqual(got.map(fieldErrorMessage), [
    'object.spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1',
  ]);
  const type = validateCustomResource({ spec: 'x' }, schema, newPath('object'));
  assert.deepEqual(
    type.map((e) => [e.type, e.field]),
    [['FieldValueTypeInvalid', 'object.spec']]
  );
});
