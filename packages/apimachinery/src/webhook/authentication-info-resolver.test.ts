import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { AuthenticationInfo } from './authentication-info-resolver.js';
import {
  newAuthenticationInfoResolver,
  parseCredentialFile,
} from './authentication-info-resolver.js';

test('credential names: exact, then the most specific wildcard, then without port 443, then *', () => {
  const users = new Map<string, AuthenticationInfo>([
    ['hook.ns.svc:8443', { token: 'exact-port' }],
    ['hook.ns.svc', { token: 'exact-443' }],
    ['*.ns.svc:8443', { token: 'wild-ns-port' }],
    ['*.svc:8443', { token: 'wild-svc-port' }],
    ['*.svc', { token: 'wild-svc' }],
    ['example.com:443', { token: 'url-exact' }],
    ['*', { token: 'default' }],
  ]);
  const r = newAuthenticationInfoResolver(users);
  const rows: [string, AuthenticationInfo, string | undefined][] = [
    ['exact name with port', r.forService('hook', 'ns', 8443), 'exact-port'],
    ['port 443 falls back to the name without port', r.forService('hook', 'ns', 443), 'exact-443'],
    ['most specific wildcard first', r.forService('other', 'ns', 8443), 'wild-ns-port'],
    ['a shorter wildcard', r.forService('other', 'elsewhere', 8443), 'wild-svc-port'],
    ['a wildcard without port on 443', r.forService('other', 'elsewhere', 443), 'wild-svc'],
    ['no name with another port: default', r.forService('other', 'elsewhere', 9000), 'default'],
    ['URL host:port', r.forHostPort('example.com:443'), 'url-exact'],
    ['other URL: default', r.forHostPort('example.org:443'), 'default'],
  ];
  for (const [row, info, token] of rows) assert.equal(info.token, token, row);
  assert.deepEqual(
    newAuthenticationInfoResolver(new Map()).forHostPort('x:443'),
    {},
    'no file: anonymous'
  );
});

test('credential file errors name the entry and field', () => {
  const rows: [string, string, RegExp][] = [
    ['users not a list', 'users: {}', /users: must be a list/],
    ['name missing', 'users:\n- user: {token: x}', /users\[0\].name: Required value/],
    [
      'duplicate name',
      'users:\n- name: a\n  user: {token: x}\n- name: a\n  user: {token: y}',
      /users\[1\].name: Duplicate value: "a"/,
    ],
    [
      'certificate without key',
      'users:\n- name: a\n  user: {client-certificate-data: eA==}',
      /users\[0\].user: a client certificate needs both/,
    ],
    [
      'token and basic',
      'users:\n- name: a\n  user: {token: x, username: u}',
      /token and username\/password are exclusive/,
    ],
    ['not YAML', 'users: [', /kubeConfigFile \/etc\/creds.yaml:/],
  ];
  for (const [row, text, message] of rows) {
    assert.throws(() => parseCredentialFile(text, '/etc/creds.yaml'), message, row);
  }
});
