// The service-account token controller on the shared suite with controllers: a Secret of type
// kubernetes.io/service-account-token naming a ServiceAccount gets its token, ca.crt, namespace
// and the account's uid annotation; the token authenticates as the account at the gateway
// (SelfSubjectReview) while the Secret holds it, no longer once the Secret is deleted; a Secret
// naming no existing account is deleted, and so is a token Secret once its account is.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'sa-token-secrets';
const secrets = `/api/v1/namespaces/${ns}/secrets`;
interface Secret {
  metadata: { uid: string; annotations?: Record<string, string> };
  data?: Record<string, string>;
}
const text = (s: Secret, k: string): string =>
  Buffer.from(s.data?.[k] ?? '', 'base64').toString('utf8');

before(async () => {
  suite = await sharedSuite({ controllers: true });
  const r = await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  assert.equal(r.status, 201, r.text);
});

after(async () => {
  await suite.request(0, 'DELETE', `/api/v1/namespaces/${ns}`);
  await suite.stop();
});

/** A SelfSubjectReview with only the bearer token (no client certificate). */
function whoAmI(token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(
      JSON.stringify({ apiVersion: 'authentication.orch.io/v1', kind: 'SelfSubjectReview' })
    );
    const req = request(
      new URL('/apis/authentication.orch.io/v1/selfsubjectreviews', suite.gateways[1]),
      {
        method: 'POST',
        ca: readFileSync(suite.pki.caFile),
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          Accept: 'application/json',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
          })
        );
      }
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const tokenSecret = (name: string, account: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  type: 'kubernetes.io/service-account-token',
  metadata: { name, annotations: { 'kubernetes.io/service-account.name': account } },
});

async function gone(path: string): Promise<void> {
  await waitFor(
    `${path} deleted`,
    async () => (await suite.request(0, 'GET', path)).status === 404,
    {
      timeoutMs: 30_000,
      intervalMs: 100,
    }
  ).catch((err: unknown) => {
    throw new Error(`${String(err)}\n${suite.logTail('controllers', 30)}`);
  });
}

test('token controller: a service-account-token Secret gets token, ca.crt and namespace; the token authenticates as the account until the Secret is deleted', async () => {
  const sa = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'builder' },
  });
  assert.equal(sa.status, 201, sa.text);
  const saUid = (sa.body as { metadata: { uid: string } }).metadata.uid;
  const c = await suite.request(0, 'POST', secrets, tokenSecret('builder-token', 'builder'));
  assert.equal(c.status, 201, c.text);

  let filled: Secret | undefined;
  await waitFor(
    'the token controller to fill builder-token',
    async () => {
      filled = (await suite.request(0, 'GET', `${secrets}/builder-token`)).body as Secret;
      return text(filled, 'token').length > 0;
    },
    { timeoutMs: 30_000, intervalMs: 100 }
  ).catch((err: unknown) => {
    throw new Error(`${String(err)}\n${suite.logTail('controllers', 30)}`);
  });
  const secret = filled!;
  assert.equal(text(secret, 'ca.crt'), suite.pki.caCertPem);
  assert.equal(text(secret, 'namespace'), ns);
  assert.equal(secret.metadata.annotations?.['kubernetes.io/service-account.uid'], saUid);
  const token = text(secret, 'token');
  const claims = JSON.parse(
    Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')
  ) as Record<string, unknown>;
  assert.equal(claims['iss'], 'kubernetes/serviceaccount');
  assert.equal(claims['sub'], `system:serviceaccount:${ns}:builder`);
  assert.equal(claims['kubernetes.io/serviceaccount/secret.name'], 'builder-token');
  assert.equal(claims['exp'], undefined, 'legacy tokens do not expire');

  const me = await whoAmI(token);
  assert.equal(me.status, 201, JSON.stringify(me.body));
  const user = (me.body['status'] as { userInfo: Record<string, unknown> }).userInfo;
  assert.equal(user['username'], `system:serviceaccount:${ns}:builder`);
  assert.equal(user['uid'], saUid);
  assert.deepEqual(user['groups'], [
    'system:serviceaccounts',
    `system:serviceaccounts:${ns}`,
    'system:authenticated',
  ]);

  const del = await suite.request(0, 'DELETE', `${secrets}/builder-token`);
  assert.equal(del.status, 200, del.text);
  assert.equal((await whoAmI(token)).status, 401, 'the Secret holding it is gone');
});

test('token controller: a token Secret of a missing account is deleted, and so are an account’s token Secrets when it is deleted', async () => {
  const orphan = await suite.request(0, 'POST', secrets, tokenSecret('nobody-token', 'nobody'));
  assert.equal(orphan.status, 201, orphan.text);
  await gone(`${secrets}/nobody-token`);

  const sa = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'temp' },
  });
  assert.equal(sa.status, 201, sa.text);
  assert.equal(
    (await suite.request(0, 'POST', secrets, tokenSecret('temp-token', 'temp'))).status,
    201
  );
  await waitFor(
    'temp-token filled',
    async () =>
      text((await suite.request(0, 'GET', `${secrets}/temp-token`)).body as Secret, 'token')
        .length > 0,
    { timeoutMs: 30_000, intervalMs: 100 }
  );
  const d = await suite.request(0, 'DELETE', `/api/v1/namespaces/${ns}/serviceaccounts/temp`);
  assert.equal(d.status, 200, d.text);
  await gone(`${secrets}/temp-token`);
});
