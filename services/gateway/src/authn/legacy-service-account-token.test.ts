// Legacy service-account tokens (k8s pkg/serviceaccount legacy.go legacyValidator), the ones
// kubernetes.io/service-account-token Secrets hold: issuer kubernetes/serviceaccount, no expiry,
// no audience; accepted while the Secret holds this very token and the account has the uid the
// token names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { newNotFound } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { algFor, keyIdOf } from './service-account-keys.js';
import { ServiceAccountTokenAuthenticator, legacyIssuer } from './service-account.js';
import type { ObjectGetter } from './service-account.js';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const key = { key: publicKey, alg: algFor(publicKey), kid: keyIdOf(publicKey) };
const apiAudiences = ['https://orch.default.svc'];

const legacy = (claims: Record<string, string>, sub = 'system:serviceaccount:ns:robot') =>
  new SignJWT({
    'kubernetes.io/serviceaccount/namespace': 'ns',
    'kubernetes.io/serviceaccount/secret.name': 'robot-token',
    'kubernetes.io/serviceaccount/service-account.name': 'robot',
    'kubernetes.io/serviceaccount/service-account.uid': 'sa-uid',
    ...claims,
  })
    .setProtectedHeader({ alg: key.alg, kid: key.kid })
    .setIssuer(legacyIssuer)
    .setSubject(sub)
    .sign(privateKey);

function getter(objects: ApiObject[]): ObjectGetter {
  return {
    get: (_ctx, name) => {
      const o = objects.find((x) => x.metadata.name === name);
      return o
        ? Promise.resolve(o)
        : Promise.reject(newNotFound({ group: '', resource: 'x' }, name));
    },
  };
}
const holder = (token: string): ApiObject => ({
  metadata: { name: 'robot-token', namespace: 'ns', uid: 's-uid' },
  type: 'kubernetes.io/service-account-token',
  data: { token: Buffer.from(token).toString('base64') },
});
const account = (uid = 'sa-uid'): ApiObject => ({
  metadata: { name: 'robot', namespace: 'ns', uid },
});
const authenticator = (secrets: ApiObject[], accounts: ApiObject[]) =>
  new ServiceAccountTokenAuthenticator([key], 'https://orch.default.svc', apiAudiences, {
    serviceAccounts: getter(accounts),
    pods: undefined,
    secrets: getter(secrets),
  });

test('legacy token: held by its Secret, its account with the same uid: the account, for the API audiences', async () => {
  const token = await legacy({});
  const r = await authenticator([holder(token)], [account()]).authenticateToken(token, []);
  assert.deepEqual(r, {
    user: {
      name: 'system:serviceaccount:ns:robot',
      uid: 'sa-uid',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
      extra: {},
    },
    audiences: apiAudiences,
  });
});

test('legacy token: refused when its Secret is gone or holds another token, or the account is gone or another', async () => {
  const token = await legacy({});
  const rows: { name: string; secrets: ApiObject[]; accounts: ApiObject[]; message: string }[] = [
    {
      name: 'Secret deleted',
      secrets: [],
      accounts: [account()],
      message: 'invalid service-account token: Token has been invalidated',
    },
    {
      name: 'Secret holds another token',
      secrets: [holder('another')],
      accounts: [account()],
      message: "invalid service-account token: Token does not match server's copy",
    },
    {
      name: 'account deleted',
      secrets: [holder(token)],
      accounts: [],
      message: 'ServiceAccount ns/robot has been deleted',
    },
    {
      name: 'account recreated',
      secrets: [holder(token)],
      accounts: [account('other-uid')],
      message: 'ServiceAccount UID (other-uid) does not match claim (sa-uid)',
    },
  ];
  for (const row of rows) {
    await assert.rejects(
      authenticator(row.secrets, row.accounts).authenticateToken(token, []),
      { message: row.message },
      row.name
    );
  }
});

test('legacy token: a missing claim or a subject other than the claims is refused', async () => {
  const a = authenticator([], [account()]);
  await assert.rejects(
    a.authenticateToken(await legacy({ 'kubernetes.io/serviceaccount/secret.name': '' }), []),
    { message: 'invalid service-account token: secretName claim is missing' }
  );
  const wrongSub = await legacy({}, 'system:serviceaccount:ns:other');
  await assert.rejects(a.authenticateToken(wrongSub, []), {
    message: 'invalid service-account token: sub claim is invalid',
  });
});
