// pods/proxy and services/proxy on the shared suite, to a real HTTP server standing in for a pod
// on one of this machine's own non-loopback addresses (upstream refuses loopback ones): the path
// after /proxy, the query and the body reach it with X-Forwarded-Uri; its answer comes back with
// its status and headers but the CORS ones; the errors are upstream's (400 address not allowed,
// 503 error trying to reach service, 503 no endpoints available).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

const ns = `proxy-${randomBytes(3).toString('hex')}`;
const podIP = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

let suite: Suite;
let backend: Server;
let port = 0;
const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];

async function makePod(name: string, ip: string, containerPort: number): Promise<void> {
  const made = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/pods`, {
    metadata: { name },
    spec: { containers: [{ name: 'web', image: 'web', ports: [{ containerPort }] }] },
  });
  assert.equal(made.status, 201, made.text);
  const status = await suite.request(
    0,
    'PATCH',
    `/api/v1/namespaces/${ns}/pods/${name}/status`,
    { status: { podIP: ip, podIPs: [{ ip }] } },
    { 'Content-Type': 'application/merge-patch+json' }
  );
  assert.equal(status.status, 200, status.text);
}

before(async () => {
  assert.ok(podIP, 'this machine has a non-loopback IPv4 address');
  suite = await sharedSuite();
  backend = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(207, {
        'Content-Type': 'text/plain',
        'X-Backend': 'web',
        'Access-Control-Allow-Origin': '*',
      });
      res.end(`${req.method} ${req.url} ${body}`);
    });
  });
  await new Promise<void>((r) => backend.listen(0, podIP, r));
  port = (backend.address() as AddressInfo).port;
  assert.equal(
    (await suite.request(0, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status,
    201
  );
  await makePod('web', podIP!, port);
  await makePod('loopback', '127.0.0.1', port);
  await makePod('gone', podIP!, 1);
  const svc = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/services`, {
    metadata: { name: 'web' },
    spec: { ports: [{ name: 'http', port: 80, targetPort: port }] },
  });
  assert.equal(svc.status, 201, svc.text);
  const eps = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/endpoints`, {
    metadata: { name: 'web' },
    subsets: [
      {
        addresses: [{ ip: podIP, targetRef: { kind: 'Pod', name: 'web', namespace: ns } }],
        ports: [{ name: 'http', port }],
      },
    ],
  });
  assert.equal(eps.status, 201, eps.text);
  const notPods = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/services`, {
    metadata: { name: 'not-pods' },
    spec: { ports: [{ name: 'http', port: 80 }] },
  });
  assert.equal(notPods.status, 201, notPods.text);
  const notPodEps = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/endpoints`, {
    metadata: { name: 'not-pods' },
    subsets: [{ addresses: [{ ip: podIP }], ports: [{ name: 'http', port }] }],
  });
  assert.equal(notPodEps.status, 201, notPodEps.text);
});

after(async () => {
  await suite?.request(0, 'DELETE', `/api/v1/namespaces/${ns}`);
  backend?.close();
  await suite?.stop();
});

test('pods/proxy: path, query and body reach the pod with X-Forwarded-Uri; the answer comes back, CORS headers dropped', async () => {
  const path = `/api/v1/namespaces/${ns}/pods/web:${port}/proxy/hello/there?x=1`;
  const r = await suite.request(0, 'POST', path, 'ping', { 'Content-Type': 'text/plain' });
  assert.equal(r.status, 207, r.text);
  assert.equal(r.text, 'POST /hello/there?x=1 ping');
  assert.equal(r.headers['x-backend'], 'web');
  assert.equal(r.headers['access-control-allow-origin'], undefined);
  const got = seen.at(-1)!;
  assert.equal(
    got.headers['x-forwarded-uri'],
    `/api/v1/namespaces/${ns}/pods/web:${port}/proxy/hello/there`
  );
  assert.equal(got.headers['authorization'], undefined, "the client's credentials stay here");
  // no port: the first port of the first container that declares one
  const dflt = await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/pods/web/proxy/`);
  assert.equal(dflt.status, 207, dflt.text);
  assert.equal(dflt.text, 'GET / ');
});

test('pods/proxy errors: a loopback pod IP is refused, an unreachable pod is 503 naming it', async () => {
  const loop = await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/pods/loopback/proxy/`);
  assert.equal(loop.status, 400, loop.text);
  assert.equal((loop.body as { message: string }).message, 'address not allowed');
  const gone = await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/pods/gone/proxy/`);
  assert.equal(gone.status, 503, gone.text);
  assert.equal(
    (gone.body as { message: string }).message,
    `error trying to reach service: dial tcp ${podIP}:1: connect: connection refused`
  );
  const bad = await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/pods/ftp:web:1/proxy/`);
  assert.equal(bad.status, 400, bad.text);
  assert.equal((bad.body as { message: string }).message, 'invalid pod request "ftp:web:1"');
});

test('services/proxy: a port number names the service port; a pod endpoint of that port answers', async () => {
  for (const id of ['web:80', 'web:http', 'http:web:http']) {
    const r = await suite.request(
      0,
      'GET',
      `/api/v1/namespaces/${ns}/services/${id}/proxy/svc?y=2`
    );
    assert.equal(r.status, 207, `${id}: ${r.text}`);
    assert.equal(r.text, 'GET /svc?y=2 ', id);
  }
});

test('services/proxy errors: an unknown port, no endpoints, endpoints that are not pods', async () => {
  const rows: [string, string][] = [
    ['web:81', 'no service port 81 found for service "web"'],
    ['web:other', 'no endpoints available for service "web:other"'],
    ['not-pods:http', 'no endpoints available for service "not-pods:http"'],
  ];
  for (const [id, message] of rows) {
    const r = await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/services/${id}/proxy/`);
    assert.equal(r.status, 503, `${id}: ${r.text}`);
    assert.equal((r.body as { message: string }).message, message, id);
  }
  const none = await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/services/nothing/proxy/`);
  assert.equal(none.status, 404, none.text);
});
