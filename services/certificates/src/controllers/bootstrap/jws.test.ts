// The detached JWS checked against upstream's format: k8s.io/cluster-bootstrap/token/jws's own
// test vectors, and a client's check with jose insisting on HS256 (the spec's bootstrap token
// section: the payload re-inserted as base64url without padding between the two periods).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compactVerify } from 'jose';
import { computeDetachedSignature, detachedTokenIsValid } from './jws.js';

const content = 'Hello from the other side. I must have called a thousand times.';
const secret = 'my voice is my passcode';
const id = 'joshua';

test('upstream jws_test.go vectors: ComputeDetachedSignature', async () => {
  assert.equal(
    await computeDetachedSignature(content, id, secret),
    'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8'
  );
  assert.equal(
    await computeDetachedSignature('', id, secret),
    'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..7Ui1ALizW4jXphVUB7xUqC9vLYLL9RZeOFfVLoB7Tgk'
  );
  assert.equal(
    await computeDetachedSignature(content, id, ''),
    'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..UfkqvDGiIFxrMnFseDj9LYJOLNrvjW8aHhF71mvvAs8'
  );
});

test('upstream jws_test.go vectors: DetachedTokenIsValid', async () => {
  const sig =
    'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8';
  assert.equal(await detachedTokenIsValid(sig, content, id, secret), true);
  assert.equal(await detachedTokenIsValid(sig + 'foo', content, id, secret), false);
});

test('a client verifies it with jose, HS256 only, keyed by the full token', async () => {
  const token = 'abcdef.0123456789abcdef';
  const detached = await computeDetachedSignature(content, 'abcdef', token);
  const [h, , s] = detached.split('.');
  const jws = `${h}.${Buffer.from(content).toString('base64url').replace(/=+$/, '')}.${s}`;
  const { payload, protectedHeader } = await compactVerify(jws, new TextEncoder().encode(token), {
    algorithms: ['HS256'],
  });
  assert.equal(new TextDecoder().decode(payload), content);
  assert.deepEqual(protectedHeader, { alg: 'HS256', kid: 'abcdef' });
  await assert.rejects(
    compactVerify(jws, new TextEncoder().encode('abcdef.ffffffffffffffff'), {
      algorithms: ['HS256'],
    })
  );
  await assert.rejects(
    compactVerify(jws, new TextEncoder().encode(token), { algorithms: ['HS512'] }),
    /not allowed/
  );
});
