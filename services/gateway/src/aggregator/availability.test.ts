import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWebhookServer } from '@orch/testing/webhook-server';
import type { WebhookServer } from '@orch/testing/webhook-server';
import type { AvailabilityConfig } from './availability.js';
import { checkAvailability, withAvailability } from './availability.js';

type Obj = Record<string, unknown>;

let server: WebhookServer;
let answer = 200;

before(async () => {
  server = await startWebhookServer(() => ({ status: answer, body: {} }), {
    dnsNames: ['ext.ns.svc'],
  });
});
after(() => server.stop());

const api = (): Obj => ({
  metadata: { name: 'v1.ext.example' },
  spec: {
    group: 'ext.example',
    version: 'v1',
    service: { namespace: 'ns', name: 'ext', port: 443 },
    caBundle: server.caBundle,
  },
});

function config(service: Obj | undefined, slices: Obj[]): AvailabilityConfig {
  return {
    lookups: {
      apiService: () => undefined,
      service: (ns, name) => (ns === 'ns' && name === 'ext' ? service : undefined),
      endpointSlices: () => slices,
    },
    serviceAddresses: {},
    timeoutMs: 2000,
  };
}

const service: Obj = { spec: { ports: [{ name: 'https', port: 443 }] } };
const slice = (ready: boolean, port = server.port): Obj => ({
  ports: [{ name: 'https', port }],
  endpoints: [{ addresses: ['127.0.0.1'], conditions: { ready } }],
});

test('checkAvailability: the remote availability controller reasons and messages, row by row', async () => {
  const rows: [string, AvailabilityConfig, string, string][] = [
    ['no Service', config(undefined, []), 'ServiceNotFound', 'service/ext in "ns" is not present'],
    [
      'no port 443',
      config({ spec: { ports: [{ name: 'https', port: 8443 }] } }, []),
      'ServicePortError',
      'service/ext in "ns" is not listening on port 443',
    ],
    [
      'no EndpointSlice',
      config(service, []),
      'EndpointsNotFound',
      'cannot find endpointslices for service/ext in "ns"',
    ],
    [
      'no ready endpoint',
      config(service, [slice(false)]),
      'MissingEndpoints',
      'endpointslices for service/ext in "ns" have no addresses with port name "https"',
    ],
    ['the server answers', config(service, [slice(true)]), 'Passed', 'all checks passed'],
  ];
  for (const [row, c, reason, message] of rows) {
    const got = await checkAvailability(api(), c);
    assert.equal(got?.reason, reason, row);
    assert.equal(got?.message, message, row);
    assert.equal(got?.status, reason === 'Passed' ? 'True' : 'False', row);
  }
  assert.equal(
    await checkAvailability({ spec: { version: 'v1' } }, config(service, [])),
    undefined
  );
});

test('checkAvailability: a bad status or no server is FailedDiscoveryCheck, as upstream words it', async () => {
  const url = `https://127.0.0.1:${server.port}/apis/ext.example/v1`;
  answer = 403;
  try {
    const bad = await checkAvailability(api(), config(service, [slice(true)]));
    assert.deepEqual(bad, {
      status: 'False',
      reason: 'FailedDiscoveryCheck',
      message: `bad status from ${url}: 403`,
    });
  } finally {
    answer = 200;
  }
  // the address map names the service: its endpoints are not asked for
  const mapped: AvailabilityConfig = {
    ...config(undefined, []),
    serviceAddresses: { 'ext.ns.svc:443': '127.0.0.1:1' },
  };
  const refused = await checkAvailability(api(), mapped);
  assert.equal(refused?.reason, 'FailedDiscoveryCheck');
  assert.equal(
    refused?.message,
    'failing or missing response from https://127.0.0.1:1/apis/ext.example/v1: ' +
      'Get "https://127.0.0.1:1/apis/ext.example/v1": dial tcp 127.0.0.1:1: connect: connection refused'
  );
});

test('withAvailability: the transition time moves with the status only; no change, no update', () => {
  const t0 = new Date('2026-01-01T00:00:00.123Z');
  const t1 = new Date('2026-01-01T00:05:00Z');
  const up = { status: 'True', reason: 'Passed', message: 'all checks passed' } as const;
  const first = withAvailability({}, up, t0)!;
  assert.deepEqual(first['conditions'], [
    { type: 'Available', lastTransitionTime: '2026-01-01T00:00:00Z', ...up },
  ]);
  assert.equal(withAvailability(first, up, t1), undefined);
  const other = { status: 'True', reason: 'Passed', message: 'other' } as const;
  const same = withAvailability(first, other, t1)!;
  assert.equal((same['conditions'] as Obj[])[0]!['lastTransitionTime'], '2026-01-01T00:00:00Z');
  const down = { status: 'False', reason: 'FailedDiscoveryCheck', message: 'x' } as const;
  const moved = withAvailability(
    { conditions: [{ type: 'Other' }, ...(first['conditions'] as Obj[])] },
    down,
    t1
  )!;
  assert.deepEqual(moved['conditions'], [
    { type: 'Other' },
    { type: 'Available', lastTransitionTime: '2026-01-01T00:05:00Z', ...down },
  ]);
});
