import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gatewayOptions } from '../options.js';

// The admission service's address: default-on admission plugins run there.
const required = [
  '--tls-cert-file=c',
  '--tls-private-key-file=k',
  '--client-ca-file=ca',
  '--admission-servers=127.0.0.1:6503',
];

test('authentication flags: defaults', () => {
  const c = gatewayOptions(required).authn;
  assert.equal(c.anonymous, true);
  assert.equal(c.bootstrapTokens, false);
  assert.deepEqual(c.serviceAccounts.keyFiles, ['k'], 'falls back to --tls-private-key-file');
  assert.equal(c.serviceAccounts.signingKeyFile, 'k');
  assert.equal(c.serviceAccounts.lookup, true);
  assert.equal(c.oidc, undefined);
  assert.equal(c.webhook, undefined);
  assert.equal(c.requestHeader, undefined);
});

test('anonymous under AlwaysAllow: the mode turns --anonymous-auth off with upstream warning; other modes keep it', () => {
  const warning =
    'AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer';
  const rows: [string, string[], boolean, string[]][] = [
    ['AlwaysAllow, anonymous by default', ['--authorization-mode=AlwaysAllow'], false, [warning]],
    [
      'AlwaysAllow, --anonymous-auth=true',
      ['--authorization-mode=AlwaysAllow', '--anonymous-auth=true'],
      false,
      [warning],
    ],
    [
      'AlwaysAllow, --anonymous-auth=false',
      ['--authorization-mode=AlwaysAllow', '--anonymous-auth=false'],
      false,
      [],
    ],
    ['AlwaysDeny', ['--authorization-mode=AlwaysDeny'], true, []],
    ['RBAC', ['--authorization-mode=RBAC', '--authorizer-servers=127.0.0.1:1'], true, []],
  ];
  for (const [name, args, anonymous, warnings] of rows) {
    const o = gatewayOptions([...required, ...args]);
    assert.equal(o.authn.anonymous, anonymous, name);
    assert.deepEqual(o.warnings, warnings, name);
  }
});

test('authentication flags: repeatable keys and claims, lists, booleans as --flag=false, spec defaults', () => {
  const c = gatewayOptions([
    ...required,
    '--anonymous-auth=false',
    '--service-account-key-file=a.pem',
    '--service-account-key-file=b.pem',
    '--service-account-lookup=false',
    '--enable-bootstrap-token-auth',
    '--oidc-issuer-url=https://idp',
    '--oidc-client-id=orch',
    '--oidc-required-claim=hd=example.com',
    '--oidc-required-claim=tier=gold',
    '--authentication-token-webhook-config-file=w.kubeconfig',
    '--requestheader-client-ca-file=p.crt',
    '--requestheader-username-headers=X-Remote-User,X-User',
    '--requestheader-allowed-names=front-proxy',
  ]).authn;
  assert.equal(c.anonymous, false);
  assert.deepEqual(c.serviceAccounts.keyFiles, ['a.pem', 'b.pem']);
  assert.equal(c.serviceAccounts.lookup, false);
  assert.equal(c.bootstrapTokens, true);
  assert.deepEqual(c.oidc?.requiredClaims, { hd: 'example.com', tier: 'gold' });
  assert.equal(c.oidc?.usernameClaim, 'sub');
  assert.deepEqual(c.oidc?.signingAlgs, ['RS256']);
  assert.deepEqual(c.webhook, {
    configFile: 'w.kubeconfig',
    cacheTtlMs: 120_000,
    version: 'v1beta1',
  });
  assert.deepEqual(c.requestHeader?.usernameHeaders, ['X-Remote-User', 'X-User']);
  assert.deepEqual(c.requestHeader?.allowedNames, ['front-proxy']);
});

test('authentication flags: inconsistent values are refused', () => {
  assert.throws(() => gatewayOptions([...required, '--anonymous-auth=maybe']), /anonymous-auth/);
  assert.throws(
    () => gatewayOptions([...required, '--oidc-issuer-url=https://idp']),
    /go together/
  );
  assert.throws(
    () => gatewayOptions([...required, '--oidc-issuer-url=http://idp', '--oidc-client-id=x']),
    /https/
  );
  assert.throws(
    () =>
      gatewayOptions([
        ...required,
        '--oidc-issuer-url=https://idp',
        '--oidc-client-id=x',
        '--oidc-required-claim=novalue',
      ]),
    /key=value/
  );
  assert.throws(
    () => gatewayOptions([...required, '--authentication-token-webhook-version=v2']),
    /v1 or v1beta1/
  );
  assert.throws(
    () => gatewayOptions([...required, '--requestheader-client-ca-file=p.crt']),
    /username-headers is required/
  );
});
