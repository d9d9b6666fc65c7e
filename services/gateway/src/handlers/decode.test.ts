// Decoding a request body into the object of the path's kind: one test per row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '@orch/apimachinery/errors';
import { encodeEnvelope } from '@orch/apimachinery/protobuf';
import { builtinResources } from '@orch/apimachinery/registry';
import type { ObjectKind } from '../registry/rest.js';
import { decodeRequestObject, parseFieldValidation } from './decode.js';
import type { FieldValidation } from './decode.js';

const def = (group: string, resource: string): ObjectKind =>
  builtinResources.find((d) => d.group === group && d.resource === resource && d.version === 'v1')!;
const configMaps = def('', 'configmaps');
const nodes = def('', 'nodes');
// A kind the schema model does not hold (TokenRequest was one until the binary envelope needed it).
const noSchema: ObjectKind = {
  group: 'example.com',
  version: 'v1',
  kind: 'Widget',
  namespaced: true,
};

const cm = (extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c1' },
  data: { a: 'b' },
  ...extra,
});
const json = (v: unknown): Buffer => Buffer.from(JSON.stringify(v));

interface Row {
  name: string;
  body: Buffer;
  contentType?: string;
  kind?: ObjectKind;
  target?: { namespace?: string; name?: string };
  mode?: FieldValidation;
  /** Fields the decoded object must have, or the error's code and a piece of its message. */
  want: Record<string, unknown> | { code: number; message: RegExp };
  warnings?: string[];
}

const rows: Row[] = [
  {
    name: 'JSON',
    body: json(cm()),
    want: { kind: 'ConfigMap', apiVersion: 'v1', data: { a: 'b' } },
  },
  {
    name: 'YAML',
    body: Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c1}\ndata: {a: b}\n'),
    contentType: 'application/yaml',
    want: { kind: 'ConfigMap', data: { a: 'b' } },
  },
  {
    name: 'the binary envelope',
    body: encodeEnvelope(cm()),
    contentType: 'application/vnd.kubernetes.protobuf',
    want: { kind: 'ConfigMap', data: { a: 'b' } },
  },
  {
    name: 'a broken envelope: 400',
    body: Buffer.from('k8s\0garbage'),
    contentType: 'application/vnd.orch.protobuf',
    want: { code: 400, message: /protobuf envelope/ },
  },
  {
    name: 'apiVersion and kind may be left out',
    body: json({ metadata: { name: 'c1' } }),
    want: { apiVersion: 'v1', kind: 'ConfigMap' },
  },
  { name: 'an empty body: 400', body: Buffer.alloc(0), want: { code: 400, message: /empty/ } },
  {
    name: 'invalid JSON: 400',
    body: Buffer.from('{"kind":'),
    want: { code: 400, message: /not valid JSON/ },
  },
  {
    name: 'invalid YAML: 400',
    body: Buffer.from('kind: [ConfigMap\n'),
    contentType: 'application/yaml',
    want: { code: 400, message: /not valid YAML/ },
  },
  {
    name: 'a JSON array: 400',
    body: json([cm()]),
    want: { code: 400, message: /must be a ConfigMap object/ },
  },
  {
    name: 'the wrong kind: 400',
    body: json(cm({ kind: 'Secret' })),
    want: { code: 400, message: /kind in the data \(Secret\)/ },
  },
  {
    name: 'the wrong apiVersion: 400',
    body: json(cm({ apiVersion: 'apps/v1' })),
    want: { code: 400, message: /API version in the data \(apps\/v1\)/ },
  },
  {
    name: 'metadata not an object: 400',
    body: json(cm({ metadata: 'c1' })),
    want: { code: 400, message: /metadata must be an object/ },
  },
  {
    name: 'the namespace of the path is set',
    body: json(cm()),
    target: { namespace: 'ns1' },
    want: { metadata: { name: 'c1', namespace: 'ns1' } },
  },
  {
    name: 'a namespace mismatch: 400',
    body: json(cm({ metadata: { name: 'c1', namespace: 'other' } })),
    target: { namespace: 'ns1' },
    want: { code: 400, message: /namespace of the provided object does not match/ },
  },
  {
    name: 'the body namespace stands on a path without one',
    body: json(cm({ metadata: { name: 'c1', namespace: 'other' } })),
    want: { metadata: { name: 'c1', namespace: 'other' } },
  },
  {
    name: 'a cluster-scoped kind keeps no path namespace',
    body: json({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }),
    kind: nodes,
    target: { namespace: 'ns1' },
    want: { metadata: { name: 'n1' } },
  },
  {
    name: 'the name of the path is set',
    body: json(cm({ metadata: {} })),
    target: { name: 'c9' },
    want: { metadata: { name: 'c9' } },
  },
  {
    name: 'a name mismatch: 400',
    body: json(cm()),
    target: { name: 'c9' },
    want: { code: 400, message: /name of the object \(c1\) does not match the name on the URL/ },
  },
  {
    name: 'an unknown field at Warn: pruned, one warning',
    body: json(cm({ dta: { x: 'y' } })),
    want: { data: { a: 'b' }, dta: undefined },
    warnings: ['unknown field "dta"'],
  },
  {
    name: 'an unknown field at Strict: 400',
    body: json(cm({ dta: {} })),
    mode: 'Strict',
    want: { code: 400, message: /strict decoding error: unknown field "dta"/ },
  },
  {
    name: 'an unknown field at Ignore: pruned, silent',
    body: json(cm({ dta: {} })),
    mode: 'Ignore',
    want: { dta: undefined },
    warnings: [],
  },
  {
    name: 'a duplicate field at Strict: 400',
    body: Buffer.from('{"apiVersion":"v1","kind":"ConfigMap","data":{},"data":{}}'),
    mode: 'Strict',
    want: { code: 400, message: /duplicate field "data"/ },
  },
  {
    name: 'a wrongly typed field: 400 at every level',
    body: json(cm({ data: 'not-a-map' })),
    mode: 'Ignore',
    want: { code: 400, message: /cannot be handled as a ConfigMap/ },
  },
  {
    name: 'a kind without schema is left as it is',
    body: json({ apiVersion: 'example.com/v1', kind: 'Widget', spec: { x: 1 } }),
    kind: noSchema,
    mode: 'Strict',
    want: { spec: { x: 1 } },
    warnings: [],
  },
];

for (const row of rows) {
  test(`decode: ${row.name}`, () => {
    const warnings: string[] = [];
    const run = () =>
      decodeRequestObject(
        row.body,
        row.contentType ?? 'application/json',
        row.kind ?? configMaps,
        row.target ?? {},
        row.mode ?? 'Warn',
        (w) => warnings.push(w)
      );
    const want = row.want;
    if ('code' in want && typeof want.code === 'number') {
      const { code, message } = want as { code: number; message: RegExp };
      const fails = (e: unknown): boolean =>
        e instanceof StatusError && e.code === code && message.test(e.message);
      assert.throws(run, fails);
      return;
    }
    const obj = run() as Record<string, unknown>;
    for (const [k, v] of Object.entries(want)) {
      if (k === 'metadata') assert.deepEqual(obj['metadata'], { ...(v as object) }, k);
      else assert.deepEqual(obj[k], v, k);
    }
    if (row.warnings) assert.deepEqual(warnings, row.warnings);
  });
}

const modeRows: { name: string; query: string; want: FieldValidation | 400 }[] = [
  { name: 'unset: Warn', query: '', want: 'Warn' },
  { name: 'empty: Warn', query: 'fieldValidation=', want: 'Warn' },
  { name: 'Strict', query: 'fieldValidation=Strict', want: 'Strict' },
  { name: 'Ignore', query: 'fieldValidation=Ignore', want: 'Ignore' },
  { name: 'lowercase: 400', query: 'fieldValidation=strict', want: 400 },
];

for (const row of modeRows) {
  test(`fieldValidation: ${row.name}`, () => {
    const q = new URLSearchParams(row.query);
    const is400 = (e: unknown): boolean => e instanceof StatusError && e.code === 400;
    if (row.want === 400) assert.throws(() => parseFieldValidation(q), is400);
    else assert.equal(parseFieldValidation(q), row.want);
  });
}
