// Secret and ConfigMap strategies as table tests, each row naming the upstream rule it checks
// (k8s pkg/apis/core/validation ValidateSecret, ValidateSecretUpdate, ValidateConfigMap,
// ValidateConfigMapUpdate; pkg/apis/core/v1 Convert_v1_Secret_To_core_Secret for stringData).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { secretStrategy, validateSecret, validateSecretUpdate } from './strategy.js';
import { validateConfigMap, validateConfigMapUpdate } from '../configmaps/strategy.js';

const fmt = (errs: FieldError[]): string[] =>
  errs.map((e) => `${e.field}: ${e.type}${e.message ? `: ${e.message}` : ''}`);
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const secret = (extra: Record<string, unknown> = {}): ApiObject => ({
  metadata: { name: 's', namespace: 'default' },
  ...extra,
});
const badKeyMsg =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

const createRows: [string, ApiObject, string[]][] = [
  ['Opaque with any valid keys', secret({ data: { 'a.b_c-D': b64('x') } }), []],
  [
    'IsConfigMapKey: data keys',
    secret({ data: { 'a/b': b64('x') } }),
    [`data[a/b]: FieldValueInvalid: ${badKeyMsg}`],
  ],
  [
    'IsConfigMapKey: not ..',
    secret({ data: { '..x': b64('x') } }),
    ["data[..x]: FieldValueInvalid: must not start with '..'"],
  ],
  [
    'MaxSecretSize: 1 MiB of data',
    secret({ data: { a: Buffer.alloc(1024 * 1024 + 1).toString('base64') } }),
    ['data: FieldValueTooLong: may not be more than 1048576 bytes'],
  ],
  [
    'SecretTypeTLS: tls.crt and tls.key',
    secret({ type: 'kubernetes.io/tls', data: {} }),
    ['data[tls.crt]: FieldValueRequired', 'data[tls.key]: FieldValueRequired'],
  ],
  [
    'SecretTypeTLS: both present',
    secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c'), 'tls.key': b64('k') } }),
    [],
  ],
  [
    'SecretTypeDockerConfigJSON: .dockerconfigjson required',
    secret({ type: 'kubernetes.io/dockerconfigjson', data: {} }),
    ['data[.dockerconfigjson]: FieldValueRequired'],
  ],
  [
    'SecretTypeDockerConfigJSON: valid JSON',
    secret({
      type: 'kubernetes.io/dockerconfigjson',
      data: { '.dockerconfigjson': b64('{not json') },
    }),
    ['data[.dockerconfigjson]: FieldValueInvalid'],
  ],
  [
    'SecretTypeBasicAuth: username or password',
    secret({ type: 'kubernetes.io/basic-auth', data: {} }),
    ['data[username]: FieldValueRequired', 'data[password]: FieldValueRequired'],
  ],
  [
    'SecretTypeBasicAuth: a password alone',
    secret({ type: 'kubernetes.io/basic-auth', data: { password: b64('p') } }),
    [],
  ],
  [
    'SecretTypeSSHAuth: ssh-privatekey',
    secret({ type: 'kubernetes.io/ssh-auth', data: {} }),
    ['data[ssh-privatekey]: FieldValueRequired'],
  ],
  [
    'SecretTypeServiceAccountToken: the service-account.name annotation',
    secret({ type: 'kubernetes.io/service-account-token' }),
    ['metadata.annotations[kubernetes.io/service-account.name]: FieldValueRequired'],
  ],
];
for (const [rule, obj, want] of createRows)
  test(`ValidateSecret, ${rule}`, () => {
    // a row may give only the start of a message (a JSON parser's text is Node's, not Go's)
    const got = fmt(validateSecret(obj));
    assert.equal(got.length, want.length, got.join('\n'));
    got.forEach((g, k) => assert.ok(g.startsWith(want[k]!), g));
  });

test('Convert_v1_Secret_To_core_Secret: stringData replaces data keys, then disappears (create and update)', () => {
  const s = secret({ data: { a: b64('old'), b: b64('b') }, stringData: { a: 'new', c: 'ç' } });
  secretStrategy.prepareForCreate(s);
  assert.deepEqual(s['data'], { a: b64('new'), b: b64('b'), c: b64('ç') });
  assert.equal('stringData' in s, false);
  const u = secret({ stringData: { only: 'x' } });
  secretStrategy.prepareForUpdate(u, secret());
  assert.deepEqual(u['data'], { only: b64('x') });
  assert.equal('stringData' in u, false);
  const keys = secret({ stringData: { 'bad/key': 'x' } });
  secretStrategy.prepareForCreate(keys);
  assert.deepEqual(fmt(secretStrategy.validate(keys)), [
    `data[bad/key]: FieldValueInvalid: ${badKeyMsg}`,
  ]);
});

const immutableMsg = 'field is immutable when `immutable` is set';
const updateRows: [string, ApiObject, ApiObject, string[]][] = [
  [
    'ValidateSecretUpdate: type is immutable',
    secret({ type: 'Opaque' }),
    secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c'), 'tls.key': b64('k') } }),
    ['type: FieldValueInvalid: field is immutable'],
  ],
  ['ValidateSecretUpdate: an unset type is Opaque', secret({ type: 'Opaque' }), secret(), []],
  [
    'immutable: data may not change',
    secret({ immutable: true, data: { a: b64('1') } }),
    secret({ immutable: true, data: { a: b64('2') } }),
    [`data: FieldValueForbidden: ${immutableMsg}`],
  ],
  [
    'immutable: cannot be unset',
    secret({ immutable: true }),
    secret({ immutable: false }),
    [`immutable: FieldValueForbidden: ${immutableMsg}`],
  ],
  [
    'immutable: cannot be removed',
    secret({ immutable: true }),
    secret(),
    [`immutable: FieldValueForbidden: ${immutableMsg}`],
  ],
  [
    'immutable: metadata may change',
    secret({ immutable: true, data: { a: b64('1') } }),
    {
      ...secret({ immutable: true, data: { a: b64('1') } }),
      metadata: { name: 's', labels: { x: 'y' } },
    },
    [],
  ],
  [
    'a mutable secret may become immutable and change data at once',
    secret({ data: { a: b64('1') } }),
    secret({ immutable: true, data: { a: b64('2') } }),
    [],
  ],
];
for (const [rule, old, next, want] of updateRows)
  test(`Secret ${rule}`, () => assert.deepEqual(fmt(validateSecretUpdate(next, old)), want));

const cm = (extra: Record<string, unknown> = {}): ApiObject => ({
  metadata: { name: 'c' },
  ...extra,
});
const cmRows: [string, ApiObject, string[]][] = [
  ['valid data and binaryData', cm({ data: { a: 'x' }, binaryData: { b: b64('y') } }), []],
  [
    'IsConfigMapKey: binaryData keys',
    cm({ binaryData: { 'a b': b64('y') } }),
    [`binaryData[a b]: FieldValueInvalid: ${badKeyMsg}`],
  ],
  [
    'a key in both data and binaryData',
    cm({ data: { a: 'x' }, binaryData: { a: b64('y') } }),
    ['binaryData[a]: FieldValueInvalid: duplicate key in both data and binaryData'],
  ],
  [
    'MaxSecretSize: data and binaryData together',
    cm({
      data: { a: 'x'.repeat(600 * 1024) },
      binaryData: { b: Buffer.alloc(600 * 1024).toString('base64') },
    }),
    ['data: FieldValueTooLong: may not be more than 1048576 bytes'],
  ],
];
for (const [rule, obj, want] of cmRows)
  test(`ValidateConfigMap, ${rule}`, () => assert.deepEqual(fmt(validateConfigMap(obj)), want));

const cmUpdateRows: [string, ApiObject, ApiObject, string[]][] = [
  [
    'immutable: data',
    cm({ immutable: true, data: { a: '1' } }),
    cm({ immutable: true, data: { a: '2' } }),
    [`data: FieldValueForbidden: ${immutableMsg}`],
  ],
  [
    'immutable: binaryData',
    cm({ immutable: true }),
    cm({ immutable: true, binaryData: { b: b64('y') } }),
    [`binaryData: FieldValueForbidden: ${immutableMsg}`],
  ],
  [
    'immutable: cannot be unset',
    cm({ immutable: true }),
    cm({ immutable: false }),
    [`immutable: FieldValueForbidden: ${immutableMsg}`],
  ],
  ['mutable: anything', cm({ data: { a: '1' } }), cm({ data: { a: '2' } }), []],
];
for (const [rule, old, next, want] of cmUpdateRows)
  test(`ValidateConfigMapUpdate, ${rule}`, () =>
    assert.deepEqual(fmt(validateConfigMapUpdate(next, old)), want));
