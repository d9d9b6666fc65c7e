import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { createCertificateAuthority, issueCertificate } from '@orch/component-base/pki';
import { withRequestInfo, withUser } from '../request/context.js';
import type { RequestInfo } from '../request/request-info.js';
import type { AggregatorLookups } from './proxy.js';
import { resolveService, withAggregation } from './proxy.js';

type Obj = Record<string, unknown>;

let caBundle = '';

function apiService(available: string): Obj {
  return {
    metadata: { name: 'v1beta1.metrics.orch.io' },
    spec: {
      group: 'metrics.orch.io',
      version: 'v1beta1',
      service: { namespace: 'kube-system', name: 'metrics', port: 443 },
      caBundle,
    },
    status: { conditions: [{ type: 'Available', status: available }] },
  };
}

test('resolveService: address map, ExternalName, ready endpoints of the port, errors', () => {
  const service: Obj = {
    spec: {
      ports: [
        { name: 'https', port: 443 },
        { name: 'other', port: 80 },
      ],
    },
  };
  const slices: Obj[] = [
    {
      ports: [{ name: 'https', port: 8443 }],
      endpoints: [
        { addresses: ['10.0.0.1'], conditions: { ready: false } },
        { addresses: ['10.0.0.2'], conditions: { ready: true } },
      ],
    },
  ];
  const lookups: AggregatorLookups = {
    apiService: () => undefined,
    service: (ns, name) => (ns === 'kube-system' && name === 'metrics' ? service : undefined),
    endpointSlices: () => slices,
  };
  const ref = { namespace: 'kube-system', name: 'metrics', port: 443 };
  assert.deepEqual(resolveService(ref, { lookups, serviceAddresses: {} }), {
    host: '10.0.0.2',
    port: 8443,
  });
  assert.deepEqual(
    resolveService(ref, {
      lookups,
      serviceAddresses: { 'metrics.kube-system.svc:443': '127.0.0.1:9443' },
    }),
    { host: '127.0.0.1', port: 9443 }
  );
  assert.ok(
    resolveService({ ...ref, port: 444 }, { lookups, serviceAddresses: {} }) instanceof Error
  );
  assert.ok(
    resolveService({ ...ref, name: 'x' }, { lookups, serviceAddresses: {} }) instanceof Error
  );
  slices[0]!['endpoints'] = [];
  assert.ok(resolveService(ref, { lookups, serviceAddresses: {} }) instanceof Error);
  service['spec'] = { type: 'ExternalName', externalName: 'metrics.example' };
  assert.deepEqual(resolveService(ref, { lookups, serviceAddresses: {} }), {
    host: 'metrics.example',
    port: 443,
  });
});

test('withAggregation: proxies with the front-proxy certificate and the user, 503 when unavailable, streams', async (t) => {
  const ca = await createCertificateAuthority({ commonName: 'aggr-test-ca' });
  caBundle = Buffer.from(ca.certPem).toString('base64');
  const serving = await issueCertificate(ca, {
    commonName: 'metrics',
    dnsNames: ['metrics.kube-system.svc'],
    usages: ['server'],
  });
  const proxyClient = await issueCertificate(ca, {
    commonName: 'front-proxy-client',
    usages: ['client'],
  });
  const seen: { cn: unknown; headers: Record<string, unknown>; url: string; body: string }[] = [];
  const backend = createHttpsServer(
    { cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        seen.push({
          cn: (req.socket as TLSSocket).authorized ? peer.subject?.CN : undefined,
          headers: req.headers,
          url: req.url ?? '',
          body: Buffer.concat(chunks).toString(),
        });
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"first":true}\n');
        // The second part only once the client has read the first: the answer is relayed as it comes.
        backend.once('next', () => res.end('{"second":true}\n'));
      });
    }
  );
  await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
  t.after(() => backend.close());
  const port = (backend.address() as AddressInfo).port;

  let api = apiService('True');
  const lookups: AggregatorLookups = {
    apiService: (name) => (name === 'v1beta1.metrics.orch.io' ? api : undefined),
    service: () => undefined,
    endpointSlices: () => [],
  };
  const local: string[] = [];
  const handler = withAggregation(
    (req, res) => {
      local.push(req.url ?? '');
      res.end('local');
    },
    {
      lookups,
      serviceAddresses: { 'metrics.kube-system.svc:443': `127.0.0.1:${port}` },
      clientCert: Buffer.from(proxyClient.certPem),
      clientKey: Buffer.from(proxyClient.keyPem),
    }
  );
  const front = createHttpServer((req, res) => {
    const [, prefix, group, version] = (req.url ?? '').split('?')[0]!.split('/');
    withRequestInfo(req, {
      isResourceRequest: true,
      path: req.url ?? '',
      verb: 'get',
      apiPrefix: prefix ?? '',
      apiGroup: group ?? '',
      apiVersion: version ?? '',
    } as RequestInfo);
    withUser(req, { name: 'alice', uid: '', groups: ['g1', 'g2'], extra: { 'scope/x': ['a'] } });
    void handler(req, res);
  });
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  t.after(() => front.close());
  const frontPort = (front.address() as AddressInfo).port;

  const call = (path: string, onFirst?: () => void): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const r = httpRequest(
        {
          port: frontPort,
          host: '127.0.0.1',
          path,
          method: 'POST',
          headers: { Authorization: 'Bearer secret', 'X-Remote-User': 'mallory' },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => {
            body += c.toString();
            if (body.includes('first') && !body.includes('second')) onFirst?.();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        }
      );
      r.on('error', reject);
      r.end('payload');
    });

  const proxied = await call('/apis/metrics.orch.io/v1beta1/nodes?watch=1', () =>
    backend.emit('next')
  );
  assert.equal(proxied.status, 200);
  assert.equal(proxied.body, '{"first":true}\n{"second":true}\n');
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.cn, 'front-proxy-client');
  assert.equal(seen[0]!.url, '/apis/metrics.orch.io/v1beta1/nodes?watch=1');
  assert.equal(seen[0]!.body, 'payload');
  assert.equal(seen[0]!.headers['x-remote-user'], 'alice');
  assert.equal(seen[0]!.headers['x-remote-group'], 'g1, g2');
  assert.equal(seen[0]!.headers['x-remote-extra-scope%2fx'], 'a');
  assert.equal(seen[0]!.headers['authorization'], undefined);

  assert.deepEqual(await call('/apis/apps/v1/deployments'), { status: 200, body: 'local' });
  assert.deepEqual(local, ['/apis/apps/v1/deployments']);

  api = apiService('False');
  assert.deepEqual(await call('/apis/metrics.orch.io/v1beta1/nodes'), {
    status: 503,
    body: 'service unavailable\n',
  });
  assert.equal(seen.length, 1);
});
