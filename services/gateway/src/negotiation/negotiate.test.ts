import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { StatusError } from '@orch/apimachinery/errors';
import {
  bodyMediaType,
  negotiateMediaType,
  negotiateOutput,
  writableMediaTypes,
} from './negotiate.js';
import type { Output, OutputAllowed } from './negotiate.js';

const req = (accept?: string): IncomingMessage =>
  ({ headers: accept === undefined ? {} : { accept } }) as IncomingMessage;

test('no Accept, */*, application/json: JSON', () => {
  assert.equal(negotiateOutput(req()).media, 'json');
  assert.equal(negotiateOutput(req('*/*')).media, 'json');
  assert.equal(negotiateOutput(req('application/yaml;q=0.5, application/json')).media, 'json');
});

test('the binary envelope only for kinds with a schema: 406 without a fallback, the fallback otherwise', () => {
  assert.deepEqual(negotiateOutput(req('application/vnd.orch.protobuf'), { protobuf: true }), {
    media: 'protobuf',
    contentType: 'application/vnd.orch.protobuf',
  });
  assert.deepEqual(
    negotiateOutput(req('application/vnd.kubernetes.protobuf, application/json'), {
      protobuf: true,
    }).contentType,
    'application/vnd.kubernetes.protobuf'
  );
  assert.throws(
    () => negotiateOutput(req('application/vnd.orch.protobuf'), { protobuf: false }),
    (e: unknown) => e instanceof StatusError && e.code === 406
  );
  assert.equal(
    negotiateOutput(req('application/vnd.orch.protobuf, application/json'), { protobuf: false })
      .media,
    'json'
  );
});

test('Tables: meta.orch.io and meta.k8s.io v1 where allowed, in the Accept order', () => {
  const t = negotiateOutput(
    req('application/json;as=Table;g=meta.orch.io;v=v1, application/json'),
    { table: true }
  );
  assert.deepEqual(t.table, { group: 'meta.orch.io', version: 'v1' });
  assert.equal(
    negotiateOutput(
      req(
        'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json'
      ),
      { table: true }
    ).table?.group,
    'meta.k8s.io'
  );
  assert.equal(
    negotiateOutput(req('application/json;as=Table;g=meta.orch.io;v=v1, application/json'), {
      table: false,
    }).table,
    undefined
  );
  assert.equal(
    negotiateOutput(req('application/json;as=Table;g=meta.orch.io;v=v1beta1, application/yaml'), {
      table: true,
    }).media,
    'yaml'
  );
  assert.throws(
    () => negotiateOutput(req('application/json;as=Table;g=meta.orch.io;v=v1'), { table: false }),
    (e: unknown) => e instanceof StatusError && e.code === 406
  );
  assert.throws(
    () => negotiateOutput(req('text/plain'), { table: true, protobuf: true }),
    (e: unknown) => e instanceof StatusError && e.code === 406
  );
});

test('metadata only: the PartialObjectMetadata kind the verb allows, in either meta group, binary whatever the kind', () => {
  const one = negotiateOutput(req('application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1'), {
    partial: 'PartialObjectMetadata',
  });
  assert.deepEqual(one, {
    media: 'json',
    contentType: 'application/json',
    partial: { kind: 'PartialObjectMetadata', group: 'meta.k8s.io', version: 'v1' },
  });
  const bin = negotiateOutput(
    req('application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.orch.io;v=v1'),
    { partial: 'PartialObjectMetadataList', protobuf: false }
  );
  assert.equal(bin.media, 'protobuf');
  assert.equal(bin.partial?.kind, 'PartialObjectMetadataList');
  // The other kind, another version or group, or no allowance: skipped, then 406 naming what is served.
  assert.equal(
    negotiateOutput(
      req('application/json;as=PartialObjectMetadataList;g=meta.orch.io;v=v1, application/yaml'),
      { partial: 'PartialObjectMetadata' }
    ).media,
    'yaml'
  );
  assert.equal(
    negotiateOutput(
      req('application/json;as=PartialObjectMetadata;g=meta.orch.io;v=v1beta1, application/json'),
      { partial: 'PartialObjectMetadata' }
    ).partial,
    undefined
  );
  assert.equal(
    negotiateOutput(
      req('application/json;as=PartialObjectMetadata;g=example.com;v=v1, application/json'),
      { partial: 'PartialObjectMetadata' }
    ).partial,
    undefined
  );
  assert.throws(
    () => negotiateOutput(req('application/json;as=PartialObjectMetadata;g=meta.orch.io;v=v1'), {}),
    (e: unknown) => e instanceof StatusError && e.code === 406
  );
  assert.throws(
    () =>
      negotiateOutput(req('*/*;as=PartialObjectMetadata;g=meta.orch.io;v=v1'), {
        partial: 'PartialObjectMetadata',
      }),
    (e: unknown) =>
      e instanceof StatusError &&
      e.code === 406 &&
      /as=PartialObjectMetadata;g=meta\.orch\.io;v=v1/.test(e.message)
  );
});

const notAcceptable = (e: unknown): boolean => e instanceof StatusError && e.code === 406;
const protobuf = 'application/vnd.kubernetes.protobuf';

// Accept header → media type (or 406), for what a request may be answered in.
interface OutputRow {
  name: string;
  accept: string | undefined;
  allowed: OutputAllowed;
  want: Partial<Output> | 406;
}

const outputRows: OutputRow[] = [
  {
    name: 'no Accept: JSON',
    accept: undefined,
    allowed: {},
    want: { media: 'json', contentType: 'application/json' },
  },
  { name: 'empty Accept: JSON', accept: '', allowed: {}, want: { media: 'json' } },
  { name: '*/*: JSON', accept: '*/*', allowed: {}, want: { media: 'json' } },
  { name: 'application/*: JSON', accept: 'application/*', allowed: {}, want: { media: 'json' } },
  {
    name: 'YAML',
    accept: 'application/yaml',
    allowed: {},
    want: { media: 'yaml', contentType: 'application/yaml' },
  },
  {
    name: 'q orders the list',
    accept: 'application/json;q=0.5, application/yaml',
    allowed: {},
    want: { media: 'yaml' },
  },
  {
    name: 'equal q keeps the client order',
    accept: 'application/yaml, application/json',
    allowed: {},
    want: { media: 'yaml' },
  },
  {
    name: 'q=0 is refused',
    accept: 'application/yaml;q=0, application/json',
    allowed: {},
    want: { media: 'json' },
  },
  {
    name: 'case does not matter',
    accept: 'Application/JSON',
    allowed: {},
    want: { media: 'json' },
  },
  {
    name: 'protobuf for a kind with a schema',
    accept: protobuf,
    allowed: { protobuf: true },
    want: { media: 'protobuf', contentType: protobuf },
  },
  { name: 'protobuf for a kind without schema: 406', accept: protobuf, allowed: {}, want: 406 },
  {
    name: 'protobuf without schema falls back',
    accept: `${protobuf}, application/json`,
    allowed: {},
    want: { media: 'json' },
  },
  {
    name: 'an unknown type: 406',
    accept: 'application/x-unknown',
    allowed: { protobuf: true },
    want: 406,
  },
  { name: 'text/plain: 406', accept: 'text/plain', allowed: { table: true }, want: 406 },
  {
    name: 'a Table where allowed',
    accept: 'application/json;as=Table;g=meta.k8s.io;v=v1',
    allowed: { table: true },
    want: { media: 'json', table: { group: 'meta.k8s.io', version: 'v1' } },
  },
  {
    name: 'a Table on a write: 406',
    accept: 'application/json;as=Table;g=meta.orch.io;v=v1',
    allowed: {},
    want: 406,
  },
  {
    name: 'a Table of an unknown version is skipped',
    accept: 'application/json;as=Table;g=meta.orch.io;v=v2, application/yaml',
    allowed: { table: true },
    want: { media: 'yaml' },
  },
  {
    name: 'metadata only where allowed',
    accept: 'application/json;as=PartialObjectMetadataList;g=meta.orch.io;v=v1',
    allowed: { partial: 'PartialObjectMetadataList' },
    want: {
      media: 'json',
      partial: { kind: 'PartialObjectMetadataList', group: 'meta.orch.io', version: 'v1' },
    },
  },
];

for (const row of outputRows) {
  test(`negotiate output: ${row.name}`, () => {
    if (row.want === 406) {
      assert.throws(() => negotiateMediaType(row.accept, row.allowed), notAcceptable);
      return;
    }
    const out = negotiateMediaType(row.accept, row.allowed);
    const got = Object.fromEntries(Object.keys(row.want).map((k) => [k, out[k as keyof Output]]));
    assert.deepEqual(got, row.want);
  });
}

// Content-Type → the body's media type (or 415).
interface InputRow {
  name: string;
  contentType: string | undefined;
  allowed?: string[];
  want: string | 415;
}

const inputRows: InputRow[] = [
  { name: 'no Content-Type: JSON', contentType: undefined, want: 'application/json' },
  { name: 'empty Content-Type: JSON', contentType: '', want: 'application/json' },
  {
    name: 'parameters are dropped',
    contentType: 'application/json; charset=utf-8',
    want: 'application/json',
  },
  { name: 'YAML', contentType: 'application/yaml', want: 'application/yaml' },
  { name: 'case does not matter', contentType: 'Application/YAML', want: 'application/yaml' },
  {
    name: 'protobuf where allowed',
    contentType: protobuf,
    allowed: writableMediaTypes,
    want: protobuf,
  },
  { name: 'protobuf by default: 415', contentType: protobuf, want: 415 },
  { name: 'text/plain: 415', contentType: 'text/plain', allowed: writableMediaTypes, want: 415 },
];

for (const row of inputRows) {
  test(`negotiate input: ${row.name}`, () => {
    if (row.want === 415) {
      const unsupported = (e: unknown): boolean => e instanceof StatusError && e.code === 415;
      assert.throws(() => bodyMediaType(row.contentType, row.allowed), unsupported);
    } else {
      assert.equal(bodyMediaType(row.contentType, row.allowed), row.want);
    }
  });
}
