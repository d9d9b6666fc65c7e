// Authentication against a real suite: client certificates, a token CSV, bootstrap-token secrets
// created through the API, service-account tokens minted through the token subresource,
// TokenReview in both versions, impersonation and the audit log.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, UnsecuredJWT, decodeJwt } from 'jose';
import { grantClusterRole, startSuite, waitFor as waitForTesting } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const dir = mkdtempSync(join(tmpdir(), 'orch-authn-'));
const tokenFile = join(dir, 'tokens.csv');
const auditLog = join(dir, 'audit.log');
const issuer = 'https://orch.default.svc';

interface Reply {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

/** A request with only the CA trusted: no client certificate unless given. */
function call(
  method: string,
  path: string,
  opts: {
    body?: unknown;
    headers?: Record<string, string | string[]>;
    cert?: { cert: Buffer; key: Buffer };
  } = {}
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
    const req = request(
      new URL(path, suite.gateways[0]),
      {
        method,
        ca: readFileSync(suite.pki.caFile),
        ...(opts.cert ?? {}),
        headers: {
          Accept: 'application/json',
          ...(payload ? { 'Content-Type': 'application/json' } : {}),
          ...(opts.headers ?? {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: Record<string, unknown> = {};
          try {
            body = JSON.parse(text) as Record<string, unknown>;
          } catch {
            body = { text };
          }
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
        });
      }
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const waitFor = (ready: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> =>
  waitForTesting('condition', async () => ready(), { timeoutMs });
const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });

async function review(
  token: string,
  version = 'v1',
  audiences?: string[]
): Promise<{
  status: number;
  apiVersion: unknown;
  st: {
    authenticated?: boolean;
    user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
    audiences?: string[];
    error?: string;
  };
}> {
  const r = await suite.request(0, 'POST', `/apis/authentication.orch.io/${version}/tokenreviews`, {
    apiVersion: `authentication.orch.io/${version}`,
    kind: 'TokenReview',
    spec: { token, ...(audiences ? { audiences } : {}) },
  });
  const b = r.body as { apiVersion: unknown; metadata?: object; status: never };
  // never stored: its creationTimestamp is answered JSON null, as upstream answers it
  if (r.status === 201) assert.deepEqual(b.metadata, { creationTimestamp: null });
  return { status: r.status, apiVersion: b.apiVersion, st: b.status ?? {} };
}

/** The audit events of one audit ID. */
function auditOf(id: string | string[] | undefined): Record<string, unknown> | undefined {
  const lines = readFileSync(auditLog, 'utf8').trim().split('\n');
  return lines
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((e) => e['auditID'] === id);
}

before(async () => {
  writeFileSync(tokenFile, 'tok-alice,alice,uid-1,"dev,ops"\ntok-carol,carol,uid-3\n');
  suite = await startSuite({
    gatewayArgs: [`--token-auth-file=${tokenFile}`, `--audit-log-path=${auditLog}`],
    certificates: true,
    // The token cleaner would delete the secret this file makes expire on purpose.
    certificatesArgs: ['--controllers=*,bootstrapsigner,-tokencleaner'],
  });
  assert.equal(
    (
      await suite.request(0, 'POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'sa' },
      })
    ).status,
    201
  );
  // These tests are about who a caller is: every authenticated user may read (RBAC decides
  // what they may do; impersonation stays refused to non-masters).
  await grantClusterRole(suite, 'view', 'system:authenticated');
  await waitFor(
    async () =>
      (await call('GET', '/api/v1/namespaces/default', { headers: bearer('tok-alice') })).status ===
      200,
    10_000
  );
});

after(async () => {
  await suite?.stop();
});

test('anonymous: no credentials reach health and version; on resources RBAC forbids system:anonymous', async () => {
  assert.equal((await call('GET', '/healthz')).status, 200);
  assert.equal((await call('GET', '/version')).status, 200);
  const r = await call('GET', '/api/v1/namespaces');
  assert.equal(r.status, 403);
  assert.equal(r.body['reason'], 'Forbidden');
  assert.match(
    String(r.body['message']),
    /User "system:anonymous" cannot list resource "namespaces"/
  );
});

test('client certificate: CN is the user, each O a group, plus system:authenticated (audit log)', async () => {
  const admin = suite.pki.file('admin');
  const r = await call('GET', '/api/v1/namespaces/default', {
    cert: { cert: readFileSync(admin.certFile), key: readFileSync(admin.keyFile) },
  });
  assert.equal(r.status, 200);
  await waitFor(() => auditOf(r.headers['audit-id']) !== undefined, 5000);
  const e = auditOf(r.headers['audit-id']) as {
    user: { username: string; groups: string[] };
    verb: string;
    responseStatus: { code: number };
    requestURI: string;
  };
  assert.equal(e.user.username, 'orch-admin');
  assert.deepEqual(e.user.groups, ['system:masters', 'system:authenticated']);
  assert.equal(e.verb, 'get');
  assert.equal(e.requestURI, '/api/v1/namespaces/default');
  assert.equal(e.responseStatus.code, 200);
});

test('static token file: quoted groups, uid; an unknown bearer token is 401 even on public paths', async () => {
  const ok = await call('GET', '/api/v1/namespaces/default', { headers: bearer('tok-alice') });
  assert.equal(ok.status, 200);
  const rv = await review('tok-alice');
  assert.equal(rv.status, 201);
  assert.deepEqual(rv.st.user, {
    username: 'alice',
    uid: 'uid-1',
    groups: ['dev', 'ops', 'system:authenticated'],
  });
  assert.deepEqual((await review('tok-carol')).st.user?.groups, ['system:authenticated']);
  for (const path of ['/api/v1/namespaces', '/healthz', '/version']) {
    const bad = await call('GET', path, { headers: bearer('tok-nobody') });
    assert.equal(bad.status, 401, path);
  }
});

test('TokenReview: v1 answers in the request version (v1beta1 is a removed version: 404 naming v1); unknown tokens are not authenticated; bad input is 400', async () => {
  const gone = await suite.request(0, 'POST', '/apis/authentication.orch.io/v1beta1/tokenreviews', {
    apiVersion: 'authentication.orch.io/v1beta1',
    kind: 'TokenReview',
    spec: { token: 'tok-alice' },
  });
  assert.equal(gone.status, 404);
  assert.equal(
    (gone.body as { message: string }).message,
    'TokenReview authentication.orch.io/v1beta1 was removed in v1.22 and is not served; use authentication.orch.io/v1 (available since 1.6)'
  );
  for (const v of ['v1']) {
    const r = await review('tok-alice', v);
    assert.equal(r.status, 201);
    assert.equal(r.apiVersion, `authentication.orch.io/${v}`);
    assert.equal(r.st.authenticated, true);
    const no = await review('nope', v);
    assert.equal(no.st.authenticated, false);
    assert.ok(no.st.error);
  }
  const bad = await suite.request(0, 'POST', '/apis/authentication.orch.io/v1/tokenreviews', {
    apiVersion: 'authentication.orch.io/v1',
    kind: 'TokenReview',
    spec: {},
  });
  assert.equal(bad.status, 400);
  const wrongVersion = await suite.request(
    0,
    'POST',
    '/apis/authentication.orch.io/v1/tokenreviews',
    { apiVersion: 'authentication.orch.io/v1beta1', kind: 'TokenReview', spec: { token: 'x' } }
  );
  assert.equal(wrongVersion.status, 400);
  const disc = await suite.request(0, 'GET', '/apis/authentication.orch.io/v1');
  assert.deepEqual(
    (disc.body as { resources: { name: string; verbs: string[] }[] }).resources.find(
      (r) => r.name === 'tokenreviews'
    )?.verbs,
    ['create']
  );
});

const bootstrapSecret = (id: string, secret: string, extra: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: `bootstrap-token-${id}`, namespace: 'orch-system' },
  type: 'bootstrap.orch.io/token',
  data: Object.fromEntries(
    Object.entries({
      'token-id': id,
      'token-secret': secret,
      'usage-bootstrap-authentication': 'true',
      ...extra,
    }).map(([k, v]) => [k, Buffer.from(v).toString('base64')])
  ),
});

test('bootstrap tokens: identity and extra groups from a secret; expired, unusable, bad groups and deleted secrets are 401', async () => {
  const token = 'abcdef.0123456789abcdef';
  const created = await suite.request(
    0,
    'POST',
    '/api/v1/namespaces/orch-system/secrets',
    bootstrapSecret('abcdef', '0123456789abcdef', {
      'auth-extra-groups': 'system:bootstrappers:workers',
      expiration: new Date(Date.now() + 3600_000).toISOString(),
    })
  );
  assert.equal(created.status, 201);
  await waitFor(
    async () =>
      (await call('GET', '/api/v1/namespaces/default', { headers: bearer(token) })).status === 200,
    10_000
  );
  assert.deepEqual((await review(token)).st.user, {
    username: 'system:bootstrap:abcdef',
    groups: ['system:bootstrappers', 'system:bootstrappers:workers', 'system:authenticated'],
  });
  assert.equal(
    (await call('GET', '/api/v1/namespaces', { headers: bearer('abcdef.0123456789abcdee') }))
      .status,
    401,
    'wrong secret'
  );

  // each bad variant of the same secret turns the working token into a 401, and back
  const b64 = (v: string | null) => (v === null ? null : Buffer.from(v).toString('base64'));
  const path = '/api/v1/namespaces/orch-system/secrets/bootstrap-token-abcdef';
  const cases: Record<string, string | null>[] = [
    { expiration: new Date(Date.now() - 1000).toISOString() },
    { 'usage-bootstrap-authentication': 'false' },
    { 'usage-bootstrap-authentication': null },
    { 'auth-extra-groups': 'system:masters' },
    { 'token-secret': 'ffffffffffffffff' },
  ];
  for (const bad of cases) {
    const restore = Object.fromEntries(
      Object.keys(bad).map((k) => [
        k,
        k === 'expiration'
          ? new Date(Date.now() + 3600_000).toISOString()
          : k === 'auth-extra-groups'
            ? 'system:bootstrappers:workers'
            : k === 'token-secret'
              ? '0123456789abcdef'
              : 'true',
      ])
    );
    const patch = async (d: Record<string, string | null>) =>
      assert.equal(
        (
          await suite.request(
            0,
            'PATCH',
            path,
            { data: Object.fromEntries(Object.entries(d).map(([k, v]) => [k, b64(v)])) },
            { 'Content-Type': 'application/merge-patch+json' }
          )
        ).status,
        200
      );
    await patch(bad);
    await waitFor(
      async () =>
        (await call('GET', '/api/v1/namespaces/default', { headers: bearer(token) })).status ===
        401,
      10_000
    );
    assert.equal((await review(token)).st.authenticated, false, JSON.stringify(bad));
    await patch(restore);
    await waitFor(
      async () =>
        (await call('GET', '/api/v1/namespaces/default', { headers: bearer(token) })).status ===
        200,
      10_000
    );
  }
  // a secret of another type is no bootstrap token
  const plain = { ...bootstrapSecret('ghijkl', 'aaaaaaaaaaaaaaaa'), type: 'Opaque' };
  assert.equal(
    (await suite.request(0, 'POST', '/api/v1/namespaces/orch-system/secrets', plain)).status,
    201
  );
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(
    (
      await call('GET', '/api/v1/namespaces/default', {
        headers: bearer('ghijkl.aaaaaaaaaaaaaaaa'),
      })
    ).status,
    401
  );

  assert.equal(
    (
      await suite.request(
        0,
        'DELETE',
        '/api/v1/namespaces/orch-system/secrets/bootstrap-token-abcdef'
      )
    ).status,
    200
  );
  await waitFor(
    async () =>
      (await call('GET', '/api/v1/namespaces/default', { headers: bearer(token) })).status === 401,
    10_000
  );
  assert.equal((await review(token)).st.authenticated, false);
});

async function mintToken(name: string, spec: Record<string, unknown> = {}): Promise<Reply> {
  const r = await suite.request(0, 'POST', `/api/v1/namespaces/sa/serviceaccounts/${name}/token`, {
    apiVersion: 'authentication.orch.io/v1',
    kind: 'TokenRequest',
    spec,
  });
  return { status: r.status, body: r.body as Record<string, unknown>, headers: r.headers };
}
const tokenOf = (r: Reply): string => (r.body['status'] as { token: string }).token;

test('service-account tokens: minted by the token subresource, identity, audiences, lookup of deleted accounts and bound objects', async () => {
  const sa = await suite.request(0, 'POST', '/api/v1/namespaces/sa/serviceaccounts', {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'robot' },
  });
  assert.equal(sa.status, 201);
  const uid = (sa.body as { metadata: { uid: string } }).metadata.uid;
  const minted = await mintToken('robot', { expirationSeconds: 1200 });
  assert.equal(minted.status, 201, JSON.stringify(minted.body));
  assert.equal(minted.body['kind'], 'TokenRequest');
  const token = tokenOf(minted);
  const claims = decodeJwt(token);
  assert.equal(claims.iss, issuer);
  assert.equal(claims.sub, 'system:serviceaccount:sa:robot');
  assert.equal((claims.exp ?? 0) - (claims.iat ?? 0), 1200);
  assert.equal(
    (await call('GET', '/api/v1/namespaces/sa/serviceaccounts/robot', { headers: bearer(token) }))
      .status,
    200
  );
  const rv = await review(token);
  assert.deepEqual(rv.st.user, {
    username: 'system:serviceaccount:sa:robot',
    uid,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:sa', 'system:authenticated'],
  });

  // audiences: a token for another audience is not valid for the API server, but is for a review naming it
  const other = tokenOf(await mintToken('robot', { audiences: ['vault'] }));
  assert.equal(
    (await call('GET', '/api/v1/namespaces', { headers: bearer(other) })).status,
    401,
    'wrong audience'
  );
  const forVault = await review(other, 'v1', ['vault', 'x']);
  assert.equal(forVault.st.authenticated, true);
  assert.deepEqual(forVault.st.audiences, ['vault']);
  assert.equal((await review(token, 'v1', ['vault'])).st.authenticated, false);

  // bad requests
  assert.equal((await mintToken('robot', { expirationSeconds: 10 })).status, 422);
  assert.equal((await mintToken('nobody')).status, 404);
  assert.equal(
    (await mintToken('robot', { boundObjectRef: { kind: 'Secret', name: 'missing' } })).status,
    404
  );

  // bound to a secret: deleting the secret revokes the token
  assert.equal(
    (
      await suite.request(0, 'POST', '/api/v1/namespaces/sa/secrets', {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'holder' },
      })
    ).status,
    201
  );
  const boundTok = tokenOf(
    await mintToken('robot', {
      boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'holder' },
    })
  );
  assert.equal(
    (await call('GET', '/api/v1/namespaces/default', { headers: bearer(boundTok) })).status,
    200
  );
  assert.equal(
    (await suite.request(0, 'DELETE', '/api/v1/namespaces/sa/secrets/holder')).status,
    200
  );
  assert.equal(
    (await call('GET', '/api/v1/namespaces/default', { headers: bearer(boundTok) })).status,
    401,
    'bound secret deleted'
  );

  // deleting the account revokes its tokens; a new account with the same name does not revive them
  assert.equal(
    (await suite.request(0, 'DELETE', '/api/v1/namespaces/sa/serviceaccounts/robot')).status,
    200
  );
  assert.equal(
    (await call('GET', '/api/v1/namespaces/default', { headers: bearer(token) })).status,
    401,
    'account deleted'
  );
  assert.equal(
    (
      await suite.request(0, 'POST', '/api/v1/namespaces/sa/serviceaccounts', {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'robot' },
      })
    ).status,
    201
  );
  assert.equal(
    (await call('GET', '/api/v1/namespaces/default', { headers: bearer(token) })).status,
    401,
    'recreated account has another uid'
  );
});

test('service-account tokens: expired, tampered, wrong-issuer, wrong-key and wrong-algorithm tokens are 401', async () => {
  assert.equal(
    (
      await suite.request(0, 'POST', '/api/v1/namespaces/sa/serviceaccounts', {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'neg' },
      })
    ).status,
    201
  );
  const good = tokenOf(await mintToken('neg'));
  const claims = decodeJwt(good);
  const header = JSON.parse(Buffer.from(good.split('.')[0] ?? '', 'base64url').toString()) as {
    alg: string;
    kid: string;
  };
  const gatewayKey = createPrivateKey(readFileSync(suite.pki.file('gateway').keyFile));
  const sign = (payload: Record<string, unknown>, key = gatewayKey, alg = header.alg) =>
    new SignJWT(payload).setProtectedHeader({ alg, kid: header.kid }).sign(key);

  assert.equal(
    (
      await call('GET', '/api/v1/namespaces/default', {
        headers: bearer(await sign({ ...claims })),
      })
    ).status,
    200,
    'control: re-signed with the real key'
  );
  const expired = await sign({
    ...claims,
    iat: Math.floor(Date.now() / 1000) - 7200,
    nbf: Math.floor(Date.now() / 1000) - 7200,
    exp: Math.floor(Date.now() / 1000) - 3600,
  });
  const wrongIssuer = await sign({ ...claims, iss: 'https://evil.example' });
  const otherKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const wrongKey = await sign({ ...claims }, otherKey);
  const [h, p, s] = good.split('.');
  const tamperedPayload = Buffer.from(
    JSON.stringify({ ...claims, sub: 'system:serviceaccount:kube:admin' })
  ).toString('base64url');
  const tampered = `${h}.${tamperedPayload}.${s}`;
  const none = new UnsecuredJWT({ ...claims }).encode();
  const hs256 = await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', kid: header.kid })
    .sign(new TextEncoder().encode(readFileSync(suite.pki.file('gateway').certFile, 'utf8')));
  const rsKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const rs256 = await sign({ ...claims }, rsKey, 'RS256');
  for (const [what, tok] of Object.entries({
    expired,
    wrongIssuer,
    wrongKey,
    tampered,
    none,
    hs256,
    rs256,
    truncated: `${h}.${p}`,
  })) {
    const r = await call('GET', '/api/v1/namespaces/default', { headers: bearer(tok) });
    assert.equal(r.status, 401, what);
    assert.equal((await review(tok)).st.authenticated, false, what);
  }
});

test('impersonation: masters may act as another user; groups, extras and uid; without a user is 400; others are 403; both identities audited', async () => {
  const r = await suite.request(0, 'GET', '/api/v1/namespaces/default', undefined, {
    'Impersonate-User': 'bob',
    'Impersonate-Group': 'team-a',
    'Impersonate-Extra-Scopes': 'view',
    'Impersonate-Uid': 'u-9',
  });
  assert.equal(r.status, 200);
  await waitFor(() => auditOf(r.headers['audit-id']) !== undefined, 5000);
  const e = auditOf(r.headers['audit-id']) as {
    user: { username: string };
    impersonatedUser: {
      username: string;
      uid: string;
      groups: string[];
      extra: Record<string, string[]>;
    };
  };
  assert.equal(e.user.username, 'orch-admin');
  assert.deepEqual(e.impersonatedUser, {
    username: 'bob',
    uid: 'u-9',
    groups: ['team-a', 'system:authenticated'],
    extra: { scopes: ['view'] },
  });

  const sa = await suite.request(0, 'GET', '/api/v1/namespaces/default', undefined, {
    'Impersonate-User': 'system:serviceaccount:sa:x',
  });
  await waitFor(() => auditOf(sa.headers['audit-id']) !== undefined, 5000);
  assert.deepEqual(
    (auditOf(sa.headers['audit-id']) as { impersonatedUser: { groups: string[] } }).impersonatedUser
      .groups,
    ['system:serviceaccounts', 'system:serviceaccounts:sa', 'system:authenticated']
  );

  for (const h of [
    { 'Impersonate-Group': 'g' },
    { 'Impersonate-Uid': 'u' },
    { 'Impersonate-Extra-A': 'b' },
  ] as Record<string, string>[]) {
    const bad = await suite.request(0, 'GET', '/api/v1/namespaces/default', undefined, h);
    assert.equal(bad.status, 400, JSON.stringify(h));
    assert.equal((bad.body as { reason: string }).reason, 'BadRequest');
  }
  const denied = await call('GET', '/api/v1/namespaces/default', {
    headers: { ...bearer('tok-alice'), 'Impersonate-User': 'orch-admin' },
  });
  assert.equal(denied.status, 403);
  assert.match(String(denied.body['message']), /cannot impersonate resource "users"/);
});
