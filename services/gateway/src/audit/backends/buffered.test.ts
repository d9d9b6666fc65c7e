// The batching backend: batches no larger than maxBatchSize, the rest after maxBatchWait, a full
// buffer drops and counts, a delegate that never answers never holds processEvents up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { AuditMetrics } from '../event.js';
import type { AuditEvent } from '../event.js';
import { bufferedBackend } from './buffered.js';
import type { BatchOptions } from './buffered.js';

const ev = (i: number): AuditEvent => ({
  kind: 'Event',
  apiVersion: 'audit.orch.io/v1',
  level: 'Metadata',
  auditID: String(i),
  stage: 'ResponseComplete',
  requestURI: '/',
  verb: 'get',
  user: { username: 'u' },
  sourceIPs: [],
  userAgent: '',
  requestReceivedTimestamp: '',
  stageTimestamp: '',
});
const opts: BatchOptions = {
  bufferSize: 100,
  maxBatchSize: 4,
  maxBatchWaitMs: 50,
  throttleEnable: false,
  throttleQps: 10,
  throttleBurst: 15,
};
const errorsOf = async (r: Registry): Promise<number> =>
  (await r.getSingleMetric('apiserver_audit_error_total')!.get()).values.reduce(
    (n, v) => n + v.value,
    0
  );

test('full batches at once, the rest after the wait, in order', async () => {
  const batches: string[][] = [];
  const b = bufferedBackend(
    'webhook',
    async (es) => void batches.push(es.map((e) => e.auditID)),
    opts
  );
  for (let i = 0; i < 10; i++) b.processEvents(ev(i));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(batches, [
    ['0', '1', '2', '3'],
    ['4', '5', '6', '7'],
  ]);
  await new Promise((r) => setTimeout(r, 120));
  assert.deepEqual(batches[2], ['8', '9']);
  await b.shutdown();
});

test('a dead delegate: processEvents returns at once, the overflow is dropped and counted', async () => {
  const registry = new Registry();
  const metrics = new AuditMetrics(registry);
  const never = () => new Promise<void>(() => {});
  const b = bufferedBackend(
    'webhook',
    never,
    { ...opts, bufferSize: 8, maxBatchSize: 400 },
    metrics
  );
  const start = performance.now();
  for (let i = 0; i < 20; i++) b.processEvents(ev(i));
  assert.ok(performance.now() - start < 50);
  assert.equal(await errorsOf(registry), 12);
});

test('a failed send counts its events as errors; shutdown sends what is left', async () => {
  const registry = new Registry();
  const metrics = new AuditMetrics(registry);
  const sent: string[] = [];
  const b = bufferedBackend(
    'webhook',
    async (es) => {
      if (es[0]!.auditID === '0') throw new Error('down');
      sent.push(...es.map((e) => e.auditID));
    },
    { ...opts, maxBatchWaitMs: 60_000 },
    metrics
  );
  for (let i = 0; i < 6; i++) b.processEvents(ev(i));
  await b.shutdown();
  assert.deepEqual(sent, ['4', '5']);
  assert.equal(await errorsOf(registry), 4);
});
