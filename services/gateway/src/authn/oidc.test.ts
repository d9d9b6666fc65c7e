import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OidcConfig } from './authentication-options.js';
import { oidcUser } from './oidc.js';

const base: OidcConfig = {
  issuerUrl: 'https://idp.example',
  clientId: 'orch',
  usernameClaim: 'sub',
  usernamePrefix: undefined,
  groupsClaim: 'groups',
  groupsPrefix: '',
  requiredClaims: {},
  caFile: undefined,
  signingAlgs: ['RS256'],
};

test('oidc claims: default prefix is the issuer and # unless the claim is email; "-" disables it', () => {
  assert.equal(oidcUser(base, { sub: 'u1' }).name, 'https://idp.example#u1');
  assert.equal(
    oidcUser({ ...base, usernameClaim: 'email' }, { email: 'a@b.c', email_verified: true }).name,
    'a@b.c'
  );
  assert.equal(oidcUser({ ...base, usernamePrefix: '-' }, { sub: 'u1' }).name, 'u1');
  assert.equal(oidcUser({ ...base, usernamePrefix: 'oidc:' }, { sub: 'u1' }).name, 'oidc:u1');
});

test('oidc claims: groups as an array or one string, prefixed; anything else, unverified email, missing or unequal required claims are refused', () => {
  assert.deepEqual(
    oidcUser({ ...base, groupsPrefix: 'g:' }, { sub: 'u', groups: ['a', 'b'] }).groups,
    ['g:a', 'g:b']
  );
  assert.deepEqual(oidcUser(base, { sub: 'u', groups: 'a' }).groups, ['a']);
  assert.deepEqual(
    oidcUser({ ...base, groupsClaim: undefined }, { sub: 'u', groups: ['a'] }).groups,
    []
  );
  assert.throws(() => oidcUser(base, { sub: 'u', groups: [1] }), /not an array of strings/);
  assert.throws(
    () => oidcUser({ ...base, usernameClaim: 'email' }, { email: 'a@b.c', email_verified: false }),
    /email not verified/
  );
  assert.throws(() => oidcUser(base, {}), /claim sub is missing/);
  assert.throws(
    () =>
      oidcUser({ ...base, requiredClaims: { hd: 'example.com' } }, { sub: 'u', hd: 'other.com' }),
    /required claim hd/
  );
  assert.equal(
    oidcUser({ ...base, requiredClaims: { hd: 'example.com' } }, { sub: 'u', hd: 'example.com' })
      .name,
    'https://idp.example#u'
  );
});
