// Which bootstrap token secrets the signer signs with (upstream bootstrapsigner's
// validateSecretForSigning), the expiration read at the signer's clock: the spec's bootstrap
// token table, "valid | expiration time reached | expired. It is rejected for authentication
// and ignored for signing", shown on the signer's own choice, without the token cleaner.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tokenForSigning } from './token-secret.js';

const secret = (stringData: Record<string, string>, name = 'bootstrap-token-abcdef') => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'orch-system' },
  type: 'bootstrap.orch.io/token',
  stringData: {
    'token-id': 'abcdef',
    'token-secret': '0123456789abcdef',
    'usage-bootstrap-signing': 'true',
    ...stringData,
  },
});
const now = new Date('2026-01-01T12:00:00Z');

test('Bootstrap token: "valid | expiration time reached | expired ... ignored for signing": signed until its expiration, not at or after it', () => {
  const token = { id: 'abcdef', secret: '0123456789abcdef' };
  assert.deepEqual(tokenForSigning(secret({}), now), token, 'no expiration: valid');
  assert.deepEqual(
    tokenForSigning(secret({ expiration: '2026-01-01T12:00:01Z' }), now),
    token,
    'a second before its expiration'
  );
  assert.equal(tokenForSigning(secret({ expiration: '2026-01-01T12:00:00Z' }), now), undefined);
  assert.equal(tokenForSigning(secret({ expiration: '2025-12-31T00:00:00Z' }), now), undefined);
  // Upstream HasExpired: an expiration that does not parse counts as expired.
  assert.equal(tokenForSigning(secret({ expiration: 'tomorrow' }), now), undefined);
});

test('Bootstrap token secret: only usage-bootstrap-signing "true", a name matching the token id, and the token shape are signed with', () => {
  assert.equal(tokenForSigning(secret({ 'usage-bootstrap-signing': 'false' }), now), undefined);
  assert.equal(tokenForSigning(secret({}, 'bootstrap-token-zzzzzz'), now), undefined);
  assert.equal(tokenForSigning(secret({ 'token-secret': 'short' }), now), undefined);
  assert.equal(tokenForSigning({ ...secret({}), type: 'Opaque' }, now), undefined);
});
