import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { StatusError } from '@orch/apimachinery/errors';
import { negotiateOutput } from './negotiate.js';

const req = (accept?: string): IncomingMessage => ({ headers: accept === undefined ? {} : { accept } }) as IncomingMessage;

test('no Accept, */*, application/json: JSON', () => {
  assert.equal(negotiateOutput(req()).media, 'json');
  assert.equal(negotiateOutput(req('*/*')).media, 'json');
  assert.equal(negotiateOutput(req('application/yaml;q=0.5, application/json')).media, 'json');
});

test('the binary envelope only for kinds with a schema: 406 without a fallback, the fallback otherwise', () => {
  assert.deepEqual(negotiateOutput(req('application/vnd.orch.protobuf'), { protobuf: true }), { media: 'protobuf', contentType: 'application/vnd.orch.protobuf' });
  assert.deepEqual(negotiateOutput(req('application/vnd.kubernetes.protobuf, application/json'), { protobuf: true }).contentType, 'application/vnd.kubernetes.protobuf');
  assert.throws(() => negotiateOutput(req('application/vnd.orch.protobuf'), { protobuf: false }), (e: unknown) => e instanceof StatusError && e.code === 406);
  assert.equal(negotiateOutput(req('application/vnd.orch.protobuf, application/json'), { protobuf: false }).media, 'json');
});

test('Tables: meta.orch.io and meta.k8s.io v1 where allowed, in the Accept order', () => {
  const t = negotiateOutput(req('application/json;as=Table;g=meta.orch.io;v=v1, application/json'), { table: true });
  assert.deepEqual(t.table, { group: 'meta.orch.io', version: 'v1' });
  assert.equal(negotiateOutput(req('application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json'), { table: true }).table?.group, 'meta.k8s.io');
  assert.equal(negotiateOutput(req('application/json;as=Table;g=meta.orch.io;v=v1, application/json'), { table: false }).table, undefined);
  assert.equal(negotiateOutput(req('application/json;as=Table;g=meta.orch.io;v=v1beta1, application/yaml'), { table: true }).media, 'yaml');
  assert.throws(() => negotiateOutput(req('application/json;as=Table;g=meta.orch.io;v=v1'), { table: false }), (e: unknown) => e instanceof StatusError && e.code === 406);
  assert.throws(() => negotiateOutput(req('text/plain'), { table: true, protobuf: true }), (e: unknown) => e instanceof StatusError && e.code === 406);
});

test('metadata only: the PartialObjectMetadata kind the verb allows, in either meta group, binary whatever the kind', () => {
  const one = negotiateOutput(req('application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1'), { partial: 'PartialObjectMetadata' });
  assert.deepEqual(one, { media: 'json', contentType: 'application/json', partial: { kind: 'PartialObjectMetadata', group: 'meta.k8s.io', version: 'v1' } });
  const bin = negotiateOutput(req('application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.orch.io;v=v1'), { partial: 'PartialObjectMetadataList', protobuf: false });
  assert.equal(bin.media, 'protobuf');
  assert.equal(bin.partial?.kind, 'PartialObjectMetadataList');
  // The other kind, another version or group, or no allowance: skipped, then 406 naming what is served.
  assert.equal(negotiateOutput(req('application/json;as=PartialObjectMetadataList;g=meta.orch.io;v=v1, application/yaml'), { partial: 'PartialObjectMetadata' }).media, 'yaml');
  assert.equal(negotiateOutput(req('application/json;as=PartialObjectMetadata;g=meta.orch.io;v=v1beta1, application/json'), { partial: 'PartialObjectMetadata' }).partial, undefined);
  assert.equal(negotiateOutput(req('application/json;as=PartialObjectMetadata;g=example.com;v=v1, application/json'), { partial: 'PartialObjectMetadata' }).partial, undefined);
  assert.throws(
    () => negotiateOutput(req('application/json;as=PartialObjectMetadata;g=meta.orch.io;v=v1'), {}),
    (e: unknown) => e instanceof StatusError && e.code === 406
  );
  assert.throws(
    () => negotiateOutput(req('*/*;as=PartialObjectMetadata;g=meta.orch.io;v=v1'), { partial: 'PartialObjectMetadata' }),
    (e: unknown) => e instanceof StatusError && e.code === 406 && /as=PartialObjectMetadata;g=meta\.orch\.io;v=v1/.test(e.message)
  );
});
