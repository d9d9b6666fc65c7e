// What the token controller reads from a kubernetes.io/service-account-token Secret
// (tokens_controller.go: the account it names, and generateTokenIfNeeded's checks).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { referencedServiceAccount, tokenSecretNeeds } from './tokens-controller.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const secret = (data: Record<string, string>, annotations: Record<string, string> = {}) => ({
  metadata: {
    name: 's',
    namespace: 'ns',
    annotations: { 'kubernetes.io/service-account.name': 'robot', ...annotations },
  },
  type: 'kubernetes.io/service-account-token',
  data,
});

test('token Secret: names its account by name, and by uid when the uid annotation is set', () => {
  assert.deepEqual(referencedServiceAccount(secret({})), { key: 'ns/robot' });
  assert.deepEqual(
    referencedServiceAccount(secret({}, { 'kubernetes.io/service-account.uid': 'u1' })),
    { key: 'ns/robot', uid: 'u1' }
  );
});

test('token Secret: needs token, namespace and the CA until each is there; a changed CA is rewritten, none configured is left alone', () => {
  assert.deepEqual(tokenSecretNeeds(secret({}), 'CA'), { ca: true, namespace: true, token: true });
  const full = secret({ token: b64('t'), namespace: b64('ns'), 'ca.crt': b64('CA') });
  assert.deepEqual(tokenSecretNeeds(full, 'CA'), { ca: false, namespace: false, token: false });
  assert.deepEqual(tokenSecretNeeds(full, 'NEW'), { ca: true, namespace: false, token: false });
  assert.deepEqual(tokenSecretNeeds(secret({ token: b64('t'), namespace: b64('ns') }), ''), {
    ca: false,
    namespace: false,
    token: false,
  });
});
