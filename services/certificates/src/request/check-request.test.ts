// The request check of the certificates service (upstream's validateCSR: ParseCSR, then
// CheckSignature), row by row, over requests made by `openssl req` and by @peculiar/x509.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { realisticObjects } from '@orch/apimachinery/testdata';
import { flipSignatureByte, opensslCsr, x509Csr } from '../testing/csr-fixtures.js';
import { checkRequest } from './check-request.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

test('validateCSR: a request made by openssl req parses and its signature verifies', async () => {
  const made = opensslCsr({ commonName: 'alice', organizations: ['dev', 'ops'] });
  const r = await checkRequest(made.request);
  assert.ok('csr' in r, JSON.stringify(r));
  assert.deepEqual(r.csr.subjectName.getField('O'), ['dev', 'ops']);
  assert.deepEqual(r.csr.subjectName.getField('CN'), ['alice']);
});

test('validateCSR: a request made by @peculiar/x509 parses and its signature verifies', async () => {
  const made = await x509Csr({ commonName: 'bob', organizations: ['system:nodes'] });
  const r = await checkRequest(made.request);
  assert.ok('csr' in r, JSON.stringify(r));
  assert.deepEqual(r.csr.subjectName.getField('CN'), ['bob']);
});

test('validateCSR: the realistic object of the kind holds a sound request', async () => {
  const obj = realisticObjects['certificates.orch.io/v1/CertificateSigningRequest'] as {
    spec: { request: string };
  };
  const r = await checkRequest(obj.spec.request);
  assert.ok('csr' in r, JSON.stringify(r));
});

const refused: { name: string; request: () => Promise<unknown> | unknown; message: RegExp }[] = [
  {
    name: 'ParseCSR: no PEM block at all',
    request: () => b64('not a pem'),
    message: /PEM block type must be CERTIFICATE REQUEST/,
  },
  {
    name: 'ParseCSR: a PEM block of another type (CERTIFICATE)',
    request: () =>
      b64(opensslCsr({ commonName: 'x' }).pem.replaceAll('CERTIFICATE REQUEST', 'CERTIFICATE')),
    message: /PEM block type must be CERTIFICATE REQUEST/,
  },
  {
    name: 'ParseCSR: a CERTIFICATE REQUEST block whose content is not PKCS#10',
    request: () =>
      b64(
        `-----BEGIN CERTIFICATE REQUEST-----\n${b64('garbage')}\n-----END CERTIFICATE REQUEST-----\n`
      ),
    message: /not a PKCS#10 certificate request/,
  },
  {
    name: 'CheckSignature: openssl request with a byte of the signature flipped',
    request: () => flipSignatureByte(opensslCsr({ commonName: 'x' })).request,
    message: /signature/,
  },
  {
    name: 'CheckSignature: @peculiar/x509 request with a byte of the signature flipped',
    request: async () => flipSignatureByte(await x509Csr({ commonName: 'x' })).request,
    message: /signature/,
  },
];
for (const row of refused) {
  test(`validateCSR refuses: ${row.name}`, async () => {
    const r = await checkRequest(await row.request());
    assert.ok('error' in r, 'refused');
    assert.equal(r.error.field, 'spec.request');
    assert.equal(r.error.type, 'FieldValueInvalid');
    assert.match(r.error.message, row.message);
  });
}

test('validateCSR: a missing request is required', async () => {
  const r = await checkRequest(undefined);
  assert.ok('error' in r);
  assert.equal(r.error.type, 'FieldValueRequired');
  assert.equal(r.error.field, 'spec.request');
});
