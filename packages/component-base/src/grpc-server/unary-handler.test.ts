// The unary handler wrapper over a real gRPC server and client (grpc.health.v1's Check as the
// method): answers, Status errors carried as details, readiness, latency by name and code.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Server, ServerCredentials, credentials } from '@grpc/grpc-js';
import {
  fromGrpcError,
  isNotFound,
  newNotFound,
  newServiceUnavailable,
} from '@orch/apimachinery/errors';
import { service } from 'grpc-health-check';
import { Histogram, Registry } from 'prom-client';
import { HealthClient } from './health-client.js';
import { unaryHandlers } from './unary-handler.js';

const registry = new Registry();
const latency = new Histogram({
  name: 'test_request_duration_seconds',
  help: 'test',
  labelNames: ['rpc', 'code'] as const,
  registers: [registry],
});
let ready = true;
const server = new Server();
let client: HealthClient;

before(async () => {
  const unary = unaryHandlers({
    latency,
    label: 'rpc',
    notReady: () => (ready ? undefined : newServiceUnavailable('starting')),
  });
  server.addService(service, {
    Check: unary<{ service: string }, { status: string }>('Check', (req) => {
      if (req.service === 'sync') return { status: 'SERVING' };
      if (req.service === 'async') return Promise.resolve({ status: 'NOT_SERVING' });
      throw newNotFound({ group: '', resource: 'things' }, req.service);
    }),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p)
    )
  );
  client = new HealthClient(`127.0.0.1:${port}`, credentials.createInsecure());
});

after(() => {
  client.close();
  server.forceShutdown();
});

const count = async (code: string): Promise<number> => {
  const m = (await registry.getSingleMetric('test_request_duration_seconds')?.get())?.values ?? [];
  const v = m.find(
    (x) =>
      (x as { metricName?: string }).metricName === 'test_request_duration_seconds_count' &&
      x.labels['code'] === code
  );
  return v?.value ?? 0;
};

test('answers synchronous and asynchronous handlers', async () => {
  assert.equal(await client.check('sync'), 'SERVING');
  assert.equal(await client.check('async'), 'NOT_SERVING');
  assert.equal(await count('OK'), 2);
});

test('a thrown StatusError reaches the client as that Status', async () => {
  const err = await client.check('missing').then(
    () => assert.fail('answered'),
    (e: unknown) => fromGrpcError(e, 'check')
  );
  assert.ok(isNotFound(err));
  assert.match(err.message, /things "missing" not found/);
  assert.equal(await count('5'), 1);
});

test('calls fail as unavailable while the service is not ready', async () => {
  ready = false;
  try {
    const err = await client.check('sync').then(
      () => assert.fail('answered'),
      (e: unknown) => fromGrpcError(e, 'check')
    );
    assert.equal(err.status.code, 503);
    assert.equal(await count('14'), 1);
  } finally {
    ready = true;
  }
});
