// Authentication by outside parties, each real and on loopback over TLS: an OpenID provider
// (oidc-provider, id_tokens from a real authorization-code flow), a token webhook, and an
// authenticating proxy identified by its client certificate.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:https';
import type { Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, decodeJwt, exportJWK, generateKeyPair, importJWK } from 'jose';
import type { JWK } from 'jose';
import { createCertificateAuthority, issueCertificate } from '@orch/component-base/pki';
import { freePort, grantClusterRole, startSuite, waitFor as waitForTesting } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
let provider: Server;
let providerPort = 0;
let servingTls: { cert: string; key: string };
let webhook: Server;
const dir = mkdtempSync(join(tmpdir(), 'orch-authn-ext-'));
const auditLog = join(dir, 'audit.log');
let issuer = '';
const clientId = 'orch';
const clientSecret = 'a-secret-of-at-least-32-characters-long';
const redirectUri = 'https://127.0.0.1/callback';
let rsaJwk: JWK;
let ecJwk: JWK;
let caPem = '';
const webhookCalls: {
  apiVersion: string;
  token: string;
  audiences?: string[];
  authorization?: string;
}[] = [];
const certs: Record<string, { cert: Buffer; key: Buffer }> = {};

const waitFor = (ready: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> =>
  waitForTesting('condition', async () => ready(), { timeoutMs });

interface Reply {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function https(
  url: string,
  opts: {
    method?: string;
    body?: string | Buffer;
    headers?: Record<string, string | string[]>;
    ca?: string | Buffer;
    cert?: { cert: Buffer; key: Buffer };
  } = {}
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(url),
      {
        method: opts.method ?? 'GET',
        ca: opts.ca ?? caPem,
        ...(opts.cert ?? {}),
        headers: opts.headers ?? {},
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
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers, text });
        });
      }
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** A request to the gateway (its CA trusted). */
const gw = (
  path: string,
  headers: Record<string, string | string[]> = {},
  cert?: { cert: Buffer; key: Buffer }
): Promise<Reply> =>
  https(new URL(path, suite.gateways[0]).href, {
    ca: readFileSync(suite.pki.caFile),
    headers: { Accept: 'application/json', ...headers },
    ...(cert ? { cert } : {}),
  });

async function review(token: string, audiences?: string[]) {
  const r = await suite.request(0, 'POST', '/apis/authentication.orch.io/v1/tokenreviews', {
    apiVersion: 'authentication.orch.io/v1',
    kind: 'TokenReview',
    spec: { token, ...(audiences ? { audiences } : {}) },
  });
  return ((r.body as { status?: unknown }).status ?? {}) as {
    authenticated?: boolean;
    user?: { username: string; groups?: string[]; extra?: Record<string, string[]> };
    audiences?: string[];
    error?: string;
  };
}

function auditOf(
  id: string | string[] | undefined
):
  | { user: { username: string; uid?: string; groups: string[]; extra?: Record<string, string[]> } }
  | undefined {
  const lines = readFileSync(auditLog, 'utf8').trim().split('\n');
  return lines
    .map((l) => JSON.parse(l) as { auditID: string; user: never })
    .find((e) => e.auditID === id);
}

async function startProvider(
  port: number,
  tls: { cert: string; key: string },
  keys: JWK[] = [rsaJwk, ecJwk]
): Promise<Server> {
  // oidc-provider ships no type declarations; it is loaded by name at run time
  const mod = (await import('oidc-provider' as string)) as {
    default: new (
      issuer: string,
      config: Record<string, unknown>
    ) => { callback(): (req: unknown, res: unknown) => void };
  };
  const Provider = mod.default;
  const oidc = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys },
    claims: { openid: ['sub', 'tenant'], email: ['email', 'email_verified'], groups: ['groups'] },
    conformIdTokenClaims: false,
    cookies: { keys: ['cookie-signing-key-for-the-test'] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({
        sub: id,
        email: `${id}@example.com`,
        email_verified: true,
        groups: ['devs', 'ops'],
        tenant: 'acme',
      }),
    }),
  });
  const server = createServer(tls, oidc.callback());
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  return server;
}

/** A real authorization-code flow (with PKCE) through the provider's development login and consent pages. */
async function loginAs(user: string): Promise<string> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const go = async (url: string, method = 'GET', form?: Record<string, string>): Promise<Reply> => {
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const r = await https(new URL(url, issuer).href, {
      method,
      ...(body ? { body } : {}),
      headers: {
        Cookie: cookieHeader(),
        ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
    });
    const set = r.headers['set-cookie'] ?? [];
    for (const c of Array.isArray(set) ? set : [set]) {
      const [kv = ''] = c.split(';');
      const i = kv.indexOf('=');
      jar.set(kv.slice(0, i), kv.slice(i + 1));
    }
    return r;
  };
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const q = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    scope: 'openid email groups',
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    nonce: 'n-1',
    state: 's-1',
  });
  let r = await go(`/auth?${q.toString()}`);
  for (let step = 0; step < 10; step++) {
    const location = String(r.headers['location'] ?? '');
    assert.ok(
      r.status >= 300 && r.status < 400,
      `step ${step}: HTTP ${r.status} ${r.text.slice(0, 300)}`
    );
    if (location.startsWith(redirectUri)) {
      const code = new URL(location).searchParams.get('code') ?? '';
      const tok = await https(new URL('/token', issuer).href, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          code_verifier: verifier,
        }).toString(),
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        },
      });
      assert.equal(tok.status, 200, tok.text);
      return String(tok.body['id_token']);
    }
    const m = /\/interaction\/([^/?]+)/.exec(location);
    if (m) {
      const page = await go(location);
      const prompt =
        /name="prompt" value="(\w+)"/.exec(page.text)?.[1] ??
        (/name="login"/.test(page.text) ? 'login' : 'consent');
      r = await go(
        location,
        'POST',
        prompt === 'login' ? { prompt, login: user, password: 'any' } : { prompt }
      );
    } else r = await go(location);
  }
  throw new Error('the login flow did not finish');
}

before(async () => {
  const ca = await createCertificateAuthority({ commonName: 'test-outside-ca' });
  caPem = ca.certPem;
  const caFile = join(dir, 'outside-ca.crt');
  writeFileSync(caFile, ca.certPem);
  const serving = await issueCertificate(ca, {
    commonName: '127.0.0.1',
    ipAddresses: ['127.0.0.1'],
    dnsNames: ['localhost'],
    usages: ['server'],
  });

  // the OpenID provider: an RSA key (RS256) and an EC key it also publishes (ES256, not accepted by the gateway)
  const rsa = await generateKeyPair('RS256', { extractable: true });
  rsaJwk = { ...(await exportJWK(rsa.privateKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' };
  const ec = await generateKeyPair('ES256', { extractable: true });
  ecJwk = { ...(await exportJWK(ec.privateKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' };
  providerPort = await freePort();
  issuer = `https://127.0.0.1:${providerPort}`;
  servingTls = { cert: serving.certPem, key: serving.keyPem };
  provider = await startProvider(providerPort, servingTls);

  // the token webhook: checks the gateway's credential, answers by token
  webhook = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const tr = JSON.parse(Buffer.concat(chunks).toString()) as {
        apiVersion: string;
        spec: { token: string; audiences?: string[] };
      };
      webhookCalls.push({
        apiVersion: tr.apiVersion,
        token: tr.spec.token,
        ...(tr.spec.audiences ? { audiences: tr.spec.audiences } : {}),
        ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      });
      const ok =
        req.headers.authorization === 'Bearer gateway-credential' &&
        tr.spec.token.startsWith('wh-good');
      const status = ok
        ? {
            authenticated: true,
            user: {
              username: 'webhook-user',
              uid: 'w-1',
              groups: ['wh-group'],
              extra: { 'example.org/scope': ['read'] },
            },
            ...(tr.spec.token === 'wh-good-aud' ? { audiences: ['vault'] } : {}),
          }
        : { authenticated: false, error: 'token unknown to the webhook' };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: tr.apiVersion, kind: 'TokenReview', status }));
    });
  });
  const webhookPort = await freePort();
  await new Promise<void>((r) => webhook.listen(webhookPort, '127.0.0.1', () => r()));
  const webhookConfig = join(dir, 'webhook.kubeconfig');
  writeFileSync(
    webhookConfig,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: authn\n  cluster:\n    server: https://127.0.0.1:${webhookPort}/authenticate\n    certificate-authority: outside-ca.crt\nusers:\n- name: gateway\n  user:\n    token: gateway-credential\ncontexts:\n- name: webhook\n  context:\n    cluster: authn\n    user: gateway\ncurrent-context: webhook\n`
  );

  // the authenticating proxy's own CA and certificates
  const proxyCa = await createCertificateAuthority({ commonName: 'front-proxy-ca' });
  const proxyCaFile = join(dir, 'front-proxy-ca.crt');
  writeFileSync(proxyCaFile, proxyCa.certPem);
  for (const cn of ['front-proxy', 'intruder']) {
    const c = await issueCertificate(proxyCa, { commonName: cn, usages: ['client'] });
    certs[cn] = { cert: Buffer.from(c.certPem), key: Buffer.from(c.keyPem) };
  }

  suite = await startSuite({
    gatewayArgs: [
      `--oidc-issuer-url=${issuer}`,
      `--oidc-client-id=${clientId}`,
      `--oidc-ca-file=${caFile}`,
      '--oidc-groups-claim=groups',
      '--oidc-groups-prefix=oidc:',
      '--oidc-required-claim=tenant=acme',
      `--authentication-token-webhook-config-file=${webhookConfig}`,
      '--authentication-token-webhook-cache-ttl=1m',
      `--requestheader-client-ca-file=${proxyCaFile}`,
      '--requestheader-allowed-names=front-proxy',
      '--requestheader-username-headers=X-Remote-User',
      '--requestheader-uid-headers=X-Remote-Uid',
      '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      `--audit-log-path=${auditLog}`,
    ],
  });
  const admin = suite.pki.file('admin');
  certs['admin'] = { cert: readFileSync(admin.certFile), key: readFileSync(admin.keyFile) };
  await grantClusterRole(suite, 'view', 'system:authenticated'); // these tests are about who, not what
});

after(async () => {
  await suite?.stop();
  provider?.close();
  provider?.closeAllConnections();
  webhook?.close();
  webhook?.closeAllConnections();
});

test('OpenID Connect: an id_token from a real login is a bearer token; claims and prefixes map to the user', async () => {
  const idToken = await loginAs('alice');
  assert.equal(decodeJwt(idToken).iss, issuer);
  await waitFor(
    async () =>
      (await gw('/api/v1/namespaces/default', { Authorization: `Bearer ${idToken}` })).status ===
      200,
    15_000
  );
  const r = await review(idToken);
  assert.equal(r.authenticated, true, r.error);
  assert.deepEqual(r.user, {
    username: `${issuer}#alice`,
    groups: ['oidc:devs', 'oidc:ops', 'system:authenticated'],
  });
});

test('OpenID Connect: expired, tampered, wrong-audience, wrong-issuer, wrong-algorithm and missing-claim tokens are 401', async () => {
  const idToken = await loginAs('bob');
  const claims = decodeJwt(idToken);
  const now = Math.floor(Date.now() / 1000);
  const rsaKey = await importJWK(rsaJwk, 'RS256');
  const ecKey = await importJWK(ecJwk, 'ES256');
  const sign = (payload: Record<string, unknown>, key = rsaKey, alg = 'RS256', kid = 'rsa-1') =>
    new SignJWT(payload).setProtectedHeader({ alg, kid }).sign(key);
  const control = await sign({ ...claims });
  assert.equal(
    (await gw('/api/v1/namespaces/default', { Authorization: `Bearer ${control}` })).status,
    200,
    'control: signed with the provider key'
  );
  const [h, , s] = idToken.split('.');
  const bad: Record<string, string> = {
    expired: await sign({ ...claims, iat: now - 7200, exp: now - 3600 }),
    tampered: `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url')}.${s}`,
    wrongAudience: await sign({ ...claims, aud: 'another-client' }),
    wrongIssuer: await sign({ ...claims, iss: 'https://127.0.0.1:1' }),
    wrongAlgorithm: await sign({ ...claims }, ecKey, 'ES256', 'ec-1'),
    missingRequiredClaim: await sign({ ...claims, tenant: 'other' }),
    unknownKid: await sign({ ...claims }, rsaKey, 'RS256', 'no-such-key'),
  };
  for (const [what, token] of Object.entries(bad)) {
    assert.equal(
      (await gw('/api/v1/namespaces/default', { Authorization: `Bearer ${token}` })).status,
      401,
      what
    );
    assert.equal((await review(token)).authenticated, false, what);
  }
});

test('token webhook: a TokenReview (v1beta1 by default) with the configured credential; decisions cached; audiences honoured', async () => {
  webhookCalls.length = 0;
  for (let i = 0; i < 3; i++)
    assert.equal(
      (await gw('/api/v1/namespaces/default', { Authorization: 'Bearer wh-good-1' })).status,
      200
    );
  const sent = webhookCalls.filter((c) => c.token === 'wh-good-1');
  assert.equal(sent.length, 1, 'cached after the first call');
  assert.equal(sent[0]?.apiVersion, 'authentication.orch.io/v1beta1');
  assert.equal(sent[0]?.authorization, 'Bearer gateway-credential');
  const r = await review('wh-good-1');
  assert.deepEqual(r.user, {
    username: 'webhook-user',
    uid: 'w-1',
    groups: ['wh-group', 'system:authenticated'],
    extra: { 'example.org/scope': ['read'] },
  });
  assert.equal(
    (await gw('/api/v1/namespaces/default', { Authorization: 'Bearer wh-bad' })).status,
    401
  );
  const denied = await review('wh-bad');
  assert.equal(denied.authenticated, false);
  // audiences: the webhook names vault; not valid for the API server itself
  const aud = await review('wh-good-aud', ['vault']);
  assert.equal(aud.authenticated, true);
  assert.deepEqual(aud.audiences, ['vault']);
  assert.deepEqual(webhookCalls.find((c) => c.token === 'wh-good-aud')?.audiences, ['vault']);
  assert.equal(
    (await gw('/api/v1/namespaces/default', { Authorization: 'Bearer wh-good-aud' })).status,
    401
  );
});

async function assertAnonymous(
  r: { status: number; headers: Record<string, string | string[] | undefined> },
  why: string
): Promise<void> {
  assert.equal(r.status, 403, why);
  await waitFor(() => auditOf(r.headers['audit-id']) !== undefined, 5000);
  assert.equal(auditOf(r.headers['audit-id'])?.user.username, 'system:anonymous', why);
}

test('authenticating proxy: headers count only with the proxy certificate and an allowed name', async () => {
  const headers = {
    'X-Remote-User': 'carol',
    'X-Remote-Uid': 'c-7',
    'X-Remote-Group': ['team-a', 'team-b'],
    'X-Remote-Extra-Acme.com%2Fproject': 'Blue',
  };
  const ok = await gw('/api/v1/namespaces/default', headers, certs['front-proxy']);
  assert.equal(ok.status, 200);
  await waitFor(() => auditOf(ok.headers['audit-id']) !== undefined, 5000);
  assert.deepEqual(auditOf(ok.headers['audit-id'])?.user, {
    username: 'carol',
    uid: 'c-7',
    groups: ['team-a', 'team-b', 'system:authenticated'],
    extra: { 'acme.com/project': ['Blue'] },
  });

  // Without the proxy's certificate and an allowed name the headers give no identity: the caller
  // is anonymous, which RBAC forbids here.
  await assertAnonymous(await gw('/api/v1/namespaces/default', headers), 'no client certificate');
  await assertAnonymous(
    await gw('/api/v1/namespaces/default', headers, certs['intruder']),
    'a certificate of the proxy CA with a name not allowed'
  );

  const asAdmin = await gw('/api/v1/namespaces/default', headers, certs['admin']);
  assert.equal(asAdmin.status, 200);
  await waitFor(() => auditOf(asAdmin.headers['audit-id']) !== undefined, 5000);
  assert.equal(
    auditOf(asAdmin.headers['audit-id'])?.user.username,
    'orch-admin',
    'a client certificate of the client CA is not the proxy'
  );
  await assertAnonymous(
    await gw('/api/v1/namespaces/default', {}, certs['front-proxy']),
    'the proxy without a user header is no user'
  );
});

test('OpenID Connect: a provider that rotates to a new signing key is followed (its keys are fetched again for an unknown kid)', async () => {
  const oldToken = await loginAs('frank');
  assert.equal(
    (await gw('/api/v1/namespaces/default', { Authorization: `Bearer ${oldToken}` })).status,
    200
  );
  // the provider restarts signing with a new RSA key, still publishing the old one
  await new Promise<void>((r) => {
    provider.close(() => r());
    provider.closeAllConnections();
  });
  const old = rsaJwk;
  const next = await generateKeyPair('RS256', { extractable: true });
  rsaJwk = { ...(await exportJWK(next.privateKey)), kid: 'rsa-2', alg: 'RS256', use: 'sig' };
  const keys = [rsaJwk, old];
  provider = await startProvider(providerPort, servingTls, keys);
  const newToken = await loginAs('frank');
  assert.equal(
    (
      JSON.parse(Buffer.from(newToken.split('.')[0] ?? '', 'base64url').toString()) as {
        kid: string;
      }
    ).kid,
    'rsa-2'
  );
  await waitFor(
    async () =>
      (await gw('/api/v1/namespaces/default', { Authorization: `Bearer ${newToken}` })).status ===
      200,
    15_000
  );
  assert.equal(
    (await gw('/api/v1/namespaces/default', { Authorization: `Bearer ${oldToken}` })).status,
    200,
    'tokens of the old key stay valid while it is published'
  );
});
