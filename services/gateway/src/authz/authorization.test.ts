// The gateway's authorization modes against a real suite: an unreachable authorizer fails
// closed (503), AlwaysDeny refuses, AlwaysAllow lets a user with no bindings through, and in
// every mode `system:masters` is allowed before the mode is asked (upstream's privileged groups
// authorizer).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '@orch/component-base/logs';
import { freePort, startSuite, userKubeconfig, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { startInBackground } from '@orch/component-base/run';
import type { Started } from '@orch/component-base/run';
import { newGatewayConfig } from '../config.js';
import { gatewayOptions } from '../options.js';
import { suiteGatewayArgs } from '../suite-gateway-args.js';
import { GatewayServer } from '../server.js';

let suite: Suite;
const servers: Started[] = [];

before(async () => {
  suite = await startSuite();
});

after(async () => {
  for (const s of servers) await s.stop();
  await suite.stop();
});

async function gateway(args: string[]): Promise<Started> {
  const options = gatewayOptions(['--secure-port=0', ...suiteGatewayArgs(suite), ...args]);
  const log = createLogger('test-gateway');
  const s = await startInBackground(new GatewayServer(await newGatewayConfig(options, log)));
  servers.push(s);
  return s;
}

function get(
  port: number,
  path: string,
  cert?: { certFile: string; keyFile: string }
): Promise<{ status: number; body: Record<string, unknown> }> {
  return send(port, 'GET', path, cert);
}

function send(
  port: number,
  method: string,
  path: string,
  cert?: { certFile: string; keyFile: string },
  body?: unknown
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const tls = cert ? { cert: readFileSync(cert.certFile), key: readFileSync(cert.keyFile) } : {};
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        ca: readFileSync(suite.pki.caFile),
        ...tls,
        headers: {
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : { text },
          })
        );
      }
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe('authorization modes', () => {
  it('fails closed with 503 when the authorizer cannot be reached; system:masters still gets in and reads /readyz', async () => {
    const g = await gateway([
      '--authorization-mode=RBAC',
      `--authorizer-servers=127.0.0.1:${await freePort()}`,
    ]);
    const user = await userKubeconfig(suite.pki, suite.gateways[0]!, 'unreachable-reader');
    const r = await get(g.port, '/api/v1/namespaces', user);
    assert.equal(r.status, 503);
    assert.equal(r.body['reason'], 'ServiceUnavailable');
    assert.match(String(r.body['message']), /authorization is unavailable/);
    assert.equal((await get(g.port, '/healthz')).status, 503);
    const admin = suite.pki.file('admin');
    assert.equal((await get(g.port, '/api/v1/namespaces', admin)).status, 200);
    const ready = await get(g.port, '/readyz?verbose', admin);
    assert.equal(ready.status, 500);
    assert.match(String(ready.body['text']), /\[-\]authorizer-service failed/);
  });

  it('AlwaysDeny refuses every user but system:masters, naming user, verb and resource', async () => {
    const g = await gateway(['--authorization-mode=AlwaysDeny']);
    const user = await userKubeconfig(suite.pki, suite.gateways[0]!, 'denied');
    const r = await get(g.port, '/api/v1/namespaces/default/configmaps', user);
    assert.equal(r.status, 403);
    assert.equal(r.body['reason'], 'Forbidden');
    assert.equal(
      r.body['message'],
      'configmaps is forbidden: User "denied" cannot list resource "configmaps" in API group "" in the namespace "default": Everything is forbidden.'
    );
    const nonResource = await get(g.port, '/version', user);
    assert.equal(nonResource.status, 403);
    assert.equal(
      nonResource.body['message'],
      'forbidden: User "denied" cannot get path "/version": Everything is forbidden.'
    );
    const admin = suite.pki.file('admin');
    assert.equal((await get(g.port, '/api/v1/namespaces/default/configmaps', admin)).status, 200);
  });

  it('AlwaysAllow lets a user without bindings list, where RBAC refuses', async () => {
    const nobody = await userKubeconfig(suite.pki, suite.gateways[0]!, 'nobody');
    const g = await gateway(['--authorization-mode=AlwaysAllow']);
    assert.equal((await get(g.port, '/api/v1/namespaces', nobody)).status, 200);
    // No authorizer service, no bootstrap policy to wait for: /readyz has no such check.
    const hook = '/readyz/poststarthook/rbac/bootstrap-roles';
    assert.equal((await get(g.port, hook, suite.pki.file('admin'))).status, 404);
    const rbacGateway = Number(new URL(suite.gateways[0]!).port);
    assert.equal((await get(rbacGateway, hook, suite.pki.file('admin'))).status, 200);
    const rbacPort = Number(new URL(suite.gateways[0]!).port);
    // Anonymous is off under AlwaysAllow (the spec; upstream's ApplyAuthorization): a request
    // without credentials is 401 there, and reaches the authorizer as system:anonymous under RBAC.
    assert.equal((await get(g.port, '/api/v1/namespaces')).status, 401);
    assert.equal((await get(rbacPort, '/api/v1/namespaces')).status, 403);
    const refused = await get(rbacPort, '/api/v1/namespaces', nobody);
    assert.equal(refused.status, 403);
    assert.equal(
      refused.body['message'],
      'namespaces is forbidden: User "nobody" cannot list resource "namespaces" in API group "" at the cluster scope'
    );
  });
});

describe('the decision cache under RBAC', () => {
  it('answers repeated requests without the authorizer, and a deleted binding ends an allow at once, not after the TTL', async () => {
    const port = Number(new URL(suite.gateways[0]!).port);
    const reader = await userKubeconfig(suite.pki, suite.gateways[0]!, 'cached-reader');
    const binding = '/apis/rbac.authorization.orch.io/v1/clusterrolebindings/cached-reader-view';
    const created = await suite.request(
      0,
      'POST',
      '/apis/rbac.authorization.orch.io/v1/clusterrolebindings',
      {
        apiVersion: 'rbac.authorization.orch.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'cached-reader-view' },
        roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'cached-reader' }],
      }
    );
    assert.equal(created.status, 201, created.text);
    await waitFor(
      'the binding to take effect',
      async () => (await get(port, '/api/v1/namespaces/default/configmaps', reader)).status === 200,
      { timeoutMs: 10_000 }
    );
    const hits = async (): Promise<number> => {
      const text = (await suite.request(0, 'GET', '/metrics')).text;
      return Number(
        /orch_gateway_authorization_cache_total\{result="hit"\} (\d+)/.exec(text)?.[1] ?? 0
      );
    };
    // Decisions are kept once the authorizer has applied the policy the gateway watches from
    // (its informers' next progress message, within a second of the gateway's start).
    await waitFor(
      'a decision answered from the cache',
      async () => {
        const before = await hits();
        await get(port, '/api/v1/namespaces/default/configmaps', reader);
        return (await hits()) > before;
      },
      { timeoutMs: 10_000 }
    );
    const before = await hits();
    for (let i = 0; i < 5; i++)
      assert.equal((await get(port, '/api/v1/namespaces/default/configmaps', reader)).status, 200);
    assert.ok((await hits()) - before >= 5, 'five repeated reads were answered from the cache');
    // The allow is cached for 5 minutes (the default); deleting the binding must end it now.
    assert.equal((await suite.request(0, 'DELETE', binding)).status, 200);
    await waitFor(
      'the revoked binding to end the cached allow',
      async () => (await get(port, '/api/v1/namespaces/default/configmaps', reader)).status === 403,
      {
        timeoutMs: 5_000,
      }
    );
  });

  it('a Role naming one object allows that object only, however often each is asked for', async () => {
    const port = Number(new URL(suite.gateways[0]!).port);
    const user = await userKubeconfig(suite.pki, suite.gateways[0]!, 'one-object-reader');
    const rbac = '/apis/rbac.authorization.orch.io/v1/namespaces/default';
    for (const [path, body] of [
      [
        '/api/v1/namespaces/default/configmaps',
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'allowed' } },
      ],
      [
        '/api/v1/namespaces/default/configmaps',
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other' } },
      ],
      [
        `${rbac}/roles`,
        {
          apiVersion: 'rbac.authorization.orch.io/v1',
          kind: 'Role',
          metadata: { name: 'one-object' },
          rules: [
            {
              verbs: ['get'],
              apiGroups: [''],
              resources: ['configmaps'],
              resourceNames: ['allowed'],
            },
          ],
        },
      ],
      [
        `${rbac}/rolebindings`,
        {
          apiVersion: 'rbac.authorization.orch.io/v1',
          kind: 'RoleBinding',
          metadata: { name: 'one-object' },
          roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'one-object' },
          subjects: [
            { kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'one-object-reader' },
          ],
        },
      ],
    ] as const) {
      const r = await suite.request(0, 'POST', path, body);
      assert.equal(r.status, 201, r.text);
    }
    const status = async (name: string): Promise<number> =>
      (await get(port, `/api/v1/namespaces/default/configmaps/${name}`, user)).status;
    await waitFor('the role to take effect', async () => (await status('allowed')) === 200, {
      timeoutMs: 10_000,
    });
    await new Promise((r) => setTimeout(r, 1500)); // past the cache's warm-up, so the answers below come from it too
    for (let i = 0; i < 3; i++)
      assert.deepEqual(
        [await status('allowed'), await status('other'), await status('allowed')],
        [200, 403, 200]
      );
  });
  it('Dry run: "Authorization equals the non-dry-run request": a user RBAC refuses create is refused its dry run with the same Status; granted create, the dry run is 201 and stores nothing', async () => {
    const port = Number(new URL(suite.gateways[0]!).port);
    const user = await userKubeconfig(suite.pki, suite.gateways[0]!, 'dry-runner');
    const rbac = '/apis/rbac.authorization.orch.io/v1/namespaces/default';
    const role = (verbs: string[]) => ({
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'Role',
      metadata: { name: 'dry-runner' },
      rules: [{ verbs, apiGroups: [''], resources: ['configmaps'] }],
    });
    const made = await suite.request(0, 'POST', `${rbac}/roles`, role(['get', 'list']));
    assert.equal(made.status, 201, made.text);
    const bound = await suite.request(0, 'POST', `${rbac}/rolebindings`, {
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'dry-runner' },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'dry-runner' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'dry-runner' }],
    });
    assert.equal(bound.status, 201, bound.text);
    const configMaps = '/api/v1/namespaces/default/configmaps';
    await waitFor(
      'the role to take effect',
      async () => (await get(port, configMaps, user)).status === 200,
      {
        timeoutMs: 10_000,
      }
    );
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry-made' } };
    const real = await send(port, 'POST', configMaps, user, cm);
    const dry = await send(port, 'POST', `${configMaps}?dryRun=All`, user, cm);
    assert.equal(real.status, 403);
    assert.equal(dry.status, 403);
    assert.deepEqual(dry.body, real.body);
    assert.equal(
      dry.body['message'],
      'configmaps is forbidden: User "dry-runner" cannot create resource "configmaps" in API group "" in the namespace "default"'
    );
    const current = (await suite.request(0, 'GET', `${rbac}/roles/dry-runner`)).body;
    const granted = await suite.request(0, 'PUT', `${rbac}/roles/dry-runner`, {
      ...(current as Record<string, unknown>),
      rules: role(['get', 'list', 'create']).rules,
    });
    assert.equal(granted.status, 200, granted.text);
    await waitFor(
      'create granted: the dry run answered',
      async () => (await send(port, 'POST', `${configMaps}?dryRun=All`, user, cm)).status === 201,
      { timeoutMs: 10_000 }
    );
    assert.equal((await suite.request(0, 'GET', `${configMaps}/dry-made`)).status, 404);
    await suite.request(0, 'DELETE', `${rbac}/rolebindings/dry-runner`);
    await suite.request(0, 'DELETE', `${rbac}/roles/dry-runner`);
  });
});
