// The authentication filter in-process: anonymous on and off, invalid bearer tokens, the union order.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { requestListener } from '../http/handler.js';
import { AuthenticatorFunc, audienceAgnostic } from '../authn/authenticator.js';
import { bearerTokenAuthenticator } from '../authn/bearer-token.js';
import { userFrom } from '../request/context.js';
import { withAuthentication } from './with-authentication.js';

const servers: Server[] = [];
const urls: Record<string, string> = {};

function serve(name: string, anonymous: boolean): Promise<void> {
  const tokens = audienceAgnostic((t) =>
    t === 'good' ? { name: 'tina', uid: '', groups: ['g'], extra: {} } : undefined
  );
  const header = new AuthenticatorFunc((req) =>
    req.headers['x-test-user']
      ? { name: String(req.headers['x-test-user']), uid: '', groups: [], extra: {} }
      : undefined
  );
  const chain = withAuthentication(
    (req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(userFrom(req)));
    },
    [header, bearerTokenAuthenticator(tokens, [])],
    { anonymous, anonymousAllowed: (p) => p === '/healthz' }
  );
  const s = createServer(requestListener(chain));
  servers.push(s);
  return new Promise((r) =>
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      urls[name] = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
      r();
    })
  );
}

before(async () => {
  await serve('on', true);
  await serve('off', false);
});
after(() => servers.forEach((s) => s.close()));

const get = async (
  base: string | undefined,
  path: string,
  headers: Record<string, string> = {}
) => {
  const r = await fetch(`${base ?? ''}${path}`, { headers });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

test('anonymous on: no credentials is system:anonymous in system:unauthenticated, on the allowed paths only', async () => {
  const r = await get(urls['on'], '/healthz');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, {
    name: 'system:anonymous',
    uid: '',
    groups: ['system:unauthenticated'],
    extra: {},
  });
  assert.equal((await get(urls['on'], '/api/v1/pods')).status, 401);
});

test('anonymous off: no credentials is 401 everywhere', async () => {
  assert.equal((await get(urls['off'], '/healthz')).status, 401);
  assert.equal((await get(urls['off'], '/api/v1/pods')).status, 401);
});

test('a good token is its user plus system:authenticated; an invalid one is 401, never anonymous; the first authenticator decides', async () => {
  const ok = await get(urls['on'], '/api/v1/pods', { Authorization: 'Bearer good' });
  assert.deepEqual(ok.body['groups'], ['g', 'system:authenticated']);
  const bad = await get(urls['on'], '/healthz', { Authorization: 'Bearer bad' });
  assert.equal(bad.status, 401);
  assert.equal(bad.body['reason'], 'Unauthorized');
  const both = await get(urls['on'], '/api/v1/pods', {
    Authorization: 'Bearer good',
    'X-Test-User': 'first',
  });
  assert.equal(both.body['name'], 'first');
});
