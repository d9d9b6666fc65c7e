// Every service's operational server in a running suite (the shared one with the controllers
// and the certificates service): the health paths open; /metrics refused without credentials
// (401) and to a user RBAC does not allow (403, asked by SubjectAccessReview through the API);
// allowed to the group system:monitoring by the bootstrap policy; a ServiceAccount's bearer
// token checked by TokenReview; a CPU profile and a heap snapshot taken from a running process
// and parsed; the log level raised at runtime and a debug line seen in the process's log.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { sharedSuite, userKubeconfig } from '@orch/testing';
import type { Suite } from '@orch/testing';

interface Tls {
  ca: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

interface Answer {
  code: number;
  body: string;
}

const ns = 'e2e-operational';
const binding = 'e2e-operational-scraper';

let suite: Suite;
let anonymous: Tls;
let admin: Tls;
let stranger: Tls;
let monitoring: Tls;

function call(
  base: string,
  path: string,
  tls: Tls,
  opts: { method?: string; body?: string; token?: string } = {}
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, base),
      {
        method: opts.method ?? 'GET',
        ...tls,
        headers: opts.token ? { Authorization: `Bearer ${opts.token}` } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ code: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') })
        );
      }
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

async function credentials(user: string, groups: string[]): Promise<Tls> {
  const c = await userKubeconfig(suite.pki, suite.gateways[0]!, user, groups);
  return { ...anonymous, cert: await readFile(c.certFile), key: await readFile(c.keyFile) };
}

before(async () => {
  suite = await sharedSuite({ controllers: true });
  anonymous = { ca: await readFile(suite.pki.caFile) };
  const a = suite.pki.file('admin');
  admin = { ...anonymous, cert: await readFile(a.certFile), key: await readFile(a.keyFile) };
  stranger = await credentials('e2e-operational-stranger', []);
  monitoring = await credentials('e2e-operational-prometheus', ['system:monitoring']);
});

after(async () => {
  await suite?.request(
    0,
    'DELETE',
    `/apis/rbac.authorization.orch.io/v1/clusterrolebindings/${binding}`
  );
  await suite?.request(0, 'DELETE', `/api/v1/namespaces/${ns}`);
  await suite?.stop();
});

describe('operational servers', () => {
  it('every service but the gateway runs one', () => {
    assert.deepEqual(Object.keys(suite.operational).sort(), [
      'admission',
      'authorizer',
      'certificates',
      'controllers',
      'storage',
    ]);
  });

  it('health open; /metrics 401 without credentials, 403 without permission, 200 to system:monitoring', async () => {
    for (const [name, base] of Object.entries(suite.operational)) {
      assert.deepEqual(await call(base, '/healthz', anonymous), { code: 200, body: 'ok' }, name);
      assert.equal((await call(base, '/readyz', anonymous)).code, 200, name);
      assert.equal((await call(base, '/metrics', anonymous)).code, 401, name);
      const forbidden = await call(base, '/metrics', stranger);
      assert.equal(forbidden.code, 403, `${name}: ${forbidden.body}`);
      assert.match(forbidden.body, /e2e-operational-stranger/);
      const metrics = await call(base, '/metrics', monitoring);
      assert.equal(metrics.code, 200, `${name}: ${metrics.body}`);
      assert.match(metrics.body, new RegExp(`process_cpu_seconds_total\\{component="${name}"\\}`));
      // system:monitoring reads metrics and health, nothing more
      assert.equal((await call(base, '/readyz/ping', monitoring)).code, 200, name);
      assert.equal((await call(base, '/configz', monitoring)).code, 403, name);
      assert.equal((await call(base, '/debug/flags/v', monitoring)).code, 403, name);
    }
  });

  it('a bearer token is checked by TokenReview and its user by SubjectAccessReview', async () => {
    assert.equal(
      (
        await suite.request(0, 'POST', '/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: ns },
        })
      ).status,
      201
    );
    const sa = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'scraper' },
    });
    assert.equal(sa.status, 201);
    const minted = await suite.request(
      0,
      'POST',
      `/api/v1/namespaces/${ns}/serviceaccounts/scraper/token`,
      {
        apiVersion: 'authentication.orch.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 900 },
      }
    );
    assert.equal(minted.status, 201, minted.text);
    const token = (minted.body as { status: { token: string } }).status.token;
    const storage = suite.operational['storage']!;
    assert.equal((await call(storage, '/metrics', anonymous, { token: 'not-a-token' })).code, 401);
    const denied = await call(storage, '/metrics', anonymous, { token });
    assert.equal(denied.code, 403, denied.body);
    assert.match(denied.body, /system:serviceaccount:e2e-operational:scraper/);

    const bound = await suite.request(
      0,
      'POST',
      '/apis/rbac.authorization.orch.io/v1/clusterrolebindings',
      {
        apiVersion: 'rbac.authorization.orch.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: binding },
        roleRef: {
          apiGroup: 'rbac.authorization.orch.io',
          kind: 'ClusterRole',
          name: 'system:monitoring',
        },
        subjects: [{ kind: 'ServiceAccount', name: 'scraper', namespace: ns }],
      }
    );
    assert.equal(bound.status, 201, bound.text);
    // Another service, which has no denial cached; the binding reaches the authorizer's cache
    // soon after it is written.
    const admission = suite.operational['admission']!;
    const deadline = Date.now() + 25_000;
    let allowed = await call(admission, '/metrics', anonymous, { token });
    while (allowed.code !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      allowed = await call(admission, '/metrics', anonymous, { token });
    }
    assert.equal(allowed.code, 200, allowed.body);
  });

  it('a CPU profile and a heap snapshot of a running service parse', async () => {
    const base = suite.operational['admission']!;
    const profile = await call(base, '/debug/pprof/profile?seconds=1', admin);
    assert.equal(profile.code, 200, profile.body.slice(0, 200));
    const cpu = JSON.parse(profile.body) as {
      nodes: { callFrame: { functionName: string } }[];
      samples: number[];
      endTime: number;
      startTime: number;
    };
    assert.ok(cpu.nodes.length > 0 && cpu.samples.length > 0);
    assert.ok(cpu.endTime - cpu.startTime >= 900_000, 'about a second, in microseconds');
    const heap = await call(base, '/debug/pprof/heap', admin);
    assert.equal(heap.code, 200);
    const snapshot = JSON.parse(heap.body) as {
      snapshot: { node_count: number; meta: { node_fields: string[] } };
      nodes: number[];
      strings: string[];
    };
    assert.ok(snapshot.snapshot.node_count > 1000);
    assert.equal(
      snapshot.nodes.length,
      snapshot.snapshot.node_count * snapshot.snapshot.meta.node_fields.length
    );
  });

  it('the gateway profiles on its API port, behind authorization', async () => {
    const gateway = suite.gateways[0]!;
    const profile = await call(gateway, '/debug/pprof/profile?seconds=1', admin);
    assert.equal(profile.code, 200, profile.body.slice(0, 200));
    assert.ok((JSON.parse(profile.body) as { nodes: unknown[] }).nodes.length > 0);
    const heap = await call(gateway, '/debug/pprof/heap', admin);
    assert.equal(heap.code, 200);
    const snapshot = JSON.parse(heap.body) as { snapshot: { node_count: number } };
    assert.ok(snapshot.snapshot.node_count > 1000);
    assert.equal((await call(gateway, '/debug/pprof/heap', monitoring)).code, 403);
    assert.equal((await call(gateway, '/debug/flags/v', stranger)).code, 403);
    const level = await call(gateway, '/debug/flags/v', admin);
    assert.equal(level.code, 200);
    const put = await call(gateway, '/debug/flags/v', admin, { method: 'PUT', body: level.body });
    assert.equal(put.code, 200, put.body);
    assert.equal(
      (await call(gateway, '/debug/flags/v', admin, { method: 'PUT', body: 'x' })).code,
      400
    );
  });

  it('/configz redacts; the log level is raised at runtime and a debug line is written', async () => {
    const base = suite.operational['controllers']!;
    const configz = JSON.parse((await call(base, '/configz', admin)).body) as {
      controllers: { kubeconfig: string; operational: { securePort: number } };
    };
    assert.equal(configz.controllers.operational.securePort, Number(new URL(base).port));
    assert.match(configz.controllers.kubeconfig, /controllers\.kubeconfig$/);
    const flagz = await call(base, '/flagz', admin);
    assert.match(flagz.body, /^secure-port=\d+$/m);

    const before = (await call(base, '/debug/flags/v', admin)).body;
    const set = await call(base, '/debug/flags/v', admin, { method: 'PUT', body: 'debug' });
    assert.equal(set.code, 200, set.body);
    try {
      assert.equal((await call(base, '/debug/flags/v', admin)).body, 'debug');
      await call(base, '/healthz?e2e-operational-debug', anonymous);
      const deadline = Date.now() + 5000;
      const seen = () =>
        suite
          .logTail('controllers', 50)
          .split('\n')
          .some((l) => l.includes('"level":"debug"') && l.includes('"msg":"operational request"'));
      while (!seen() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.ok(seen(), suite.logTail('controllers', 10));
    } finally {
      await call(base, '/debug/flags/v', admin, { method: 'PUT', body: before });
    }
  });
});
