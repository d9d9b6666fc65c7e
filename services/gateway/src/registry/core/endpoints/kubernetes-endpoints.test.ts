// The Endpoints and EndpointSlice of default/kubernetes, kept by every gateway's lease endpoint
// reconciler (upstream's leaseEndpointReconciler), on the shared suite: the gateways' advertised
// IP with port 443's target named https, a lease per IP in orch-system, the slice beside it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { requestUntil, sharedSuite, startGateway, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import {
  advertiseAddress,
  endpointLeaseName,
  kubernetesEndpointSlice,
  kubernetesEndpoints,
  liveLeaseIps,
} from './lease-endpoint-reconciler.js';

let suite: Suite;
type Json = Record<string, unknown>;

const portOf = (s: Suite, i: number): number => Number(new URL(s.gateways[i]!).port);
const leasePath = (ip: string, port: number): string =>
  `/apis/coordination.orch.io/v1/namespaces/orch-system/leases/${endpointLeaseName(ip, port)}`;

before(async () => {
  suite = await sharedSuite();
});

after(async () => {
  await suite.stop();
});

test('default/kubernetes Endpoints: the gateways’ address and the Service’s target port named https; its EndpointSlice the same', async () => {
  const svc = await suite.request(0, 'GET', '/api/v1/namespaces/default/services/kubernetes');
  assert.equal(svc.status, 200, svc.text);
  const target = ((svc.body as Json)['spec'] as { ports: { targetPort: number }[] }).ports[0]!
    .targetPort;
  let endpoints: Json = {};
  await waitFor(
    'default/kubernetes endpoints',
    async () => {
      const r = await suite.request(0, 'GET', '/api/v1/namespaces/default/endpoints/kubernetes');
      endpoints = r.body as Json;
      return r.status === 200;
    },
    { timeoutMs: 30_000, intervalMs: 200 }
  ).catch((err: unknown) => {
    throw new Error(`${String(err)}\n${suite.logTail('gateway-0', 40)}`);
  });
  // The gateways bind loopback, so they advertise the host's address, as upstream's
  // ResolveBindAddress does.
  const ip = advertiseAddress('127.0.0.1')!;
  assert.deepEqual(endpoints['subsets'], [
    { addresses: [{ ip }], ports: [{ name: 'https', port: target, protocol: 'TCP' }] },
  ]);
  assert.equal(
    (endpoints['metadata'] as { labels: Record<string, string> }).labels[
      'endpointslice.kubernetes.io/skip-mirror'
    ],
    'true'
  );
  const slice = await suite.request(
    0,
    'GET',
    '/apis/discovery.orch.io/v1/namespaces/default/endpointslices/kubernetes'
  );
  assert.equal(slice.status, 200, slice.text);
  const body = slice.body as Json;
  assert.equal(body['addressType'], ip.includes(':') ? 'IPv6' : 'IPv4');
  assert.deepEqual(body['endpoints'], [{ addresses: [ip], conditions: { ready: true } }]);
  assert.deepEqual(body['ports'], [{ name: 'https', port: target, protocol: 'TCP' }]);
  assert.equal(
    (body['metadata'] as { labels: Record<string, string> }).labels['kubernetes.io/service-name'],
    'kubernetes'
  );
  // Every gateway keeps a lease of its own.
  for (let i = 0; i < suite.gateways.length; i++) {
    const lease = await requestUntil(
      suite,
      0,
      leasePath(ip, portOf(suite, i)),
      (r) => r.status === 200,
      {
        timeoutMs: 15_000,
        intervalMs: 200,
      }
    );
    assert.equal(lease.status, 200, `gateway ${i}'s lease: ${lease.text}`);
    assert.equal(
      (lease.body as { spec: { leaseDurationSeconds: number } }).spec.leaseDurationSeconds,
      15
    );
  }
});

test('lease endpoint reconciler: only leases renewed within their duration count; no address, no subset', () => {
  const lease = (ip: string, renewTime: string) => ({
    metadata: { name: endpointLeaseName(ip, 6443) },
    spec: { holderIdentity: ip, renewTime, leaseDurationSeconds: 15 },
  });
  const now = Date.parse('2026-01-01T00:00:20Z');
  assert.deepEqual(
    liveLeaseIps(
      [
        lease('10.0.0.2', '2026-01-01T00:00:10.000000Z'),
        lease('10.0.0.1', '2026-01-01T00:00:19.000000Z'),
        lease('10.0.0.3', '2026-01-01T00:00:04.000000Z'),
        // another Lease of the namespace
        {
          metadata: { name: 'orch-controller-manager' },
          spec: {
            holderIdentity: '10.0.0.9',
            renewTime: '2026-01-01T00:00:19Z',
            leaseDurationSeconds: 15,
          },
        },
      ],
      now
    ),
    ['10.0.0.1', '10.0.0.2']
  );
  assert.deepEqual(kubernetesEndpoints([], 6443)['subsets'], []);
  assert.equal(advertiseAddress('10.1.2.3'), '10.1.2.3');
  assert.equal(endpointLeaseName('FD00::1', 6443), 'orch-apiserver-endpoint-fd00--1-6443');
  assert.notEqual(advertiseAddress('127.0.0.1'), '127.0.0.1', 'loopback is not advertised');
  assert.equal(kubernetesEndpointSlice(['fd00::1'], 6443)['addressType'], 'IPv6');
});

test('a gateway that stops removes its own lease only: the address the other gateways on its host serve stays', async () => {
  const ip = advertiseAddress('127.0.0.1')!;
  const extra = await startGateway(suite);
  const port = portOf(extra, 0);
  try {
    await waitFor(
      'the new gateway renews its lease',
      async () => (await suite.request(0, 'GET', leasePath(ip, port))).status === 200,
      { timeoutMs: 30_000, intervalMs: 200 }
    );
  } finally {
    await extra.stop();
  }
  // Its clean stop deleted its lease and wrote the endpoints from the leases left, which the
  // suite's gateways hold for the same IP.
  assert.equal((await suite.request(0, 'GET', leasePath(ip, port))).status, 404);
  const r = await suite.request(0, 'GET', '/api/v1/namespaces/default/endpoints/kubernetes');
  assert.equal(r.status, 200, r.text);
  const subsets = (r.body as { subsets?: { addresses: { ip: string }[] }[] }).subsets ?? [];
  assert.deepEqual(
    subsets.flatMap((s) => s.addresses.map((a) => a.ip)),
    [ip]
  );
});
