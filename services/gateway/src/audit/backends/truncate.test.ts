// The truncating backend as upstream's plugin/pkg/audit/truncate tests it: an event over the
// size limit loses its request and response objects and is marked, one still too large (or at
// Metadata, where there is nothing to remove) is dropped and counted, and the events of one call
// leave in batches under the batch size. Also the blocking modes' answers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { AuditMetrics } from '../event.js';
import type { AuditEvent } from '../event.js';
import { blockingBackend } from './backend.js';
import { truncatedAnnotation, truncatingBackend } from './truncate.js';

const ev = (id: string, level: AuditEvent['level'], body = 0): AuditEvent => ({
  kind: 'Event',
  apiVersion: 'audit.orch.io/v1',
  level,
  auditID: id,
  stage: 'ResponseComplete',
  requestURI: '/',
  verb: 'create',
  user: { username: 'u' },
  sourceIPs: [],
  userAgent: '',
  requestReceivedTimestamp: '',
  stageTimestamp: '',
  ...(body > 0 ? { requestObject: { data: 'x'.repeat(body) }, responseObject: { ok: true } } : {}),
});
const size = (e: AuditEvent): number => Buffer.byteLength(JSON.stringify(e));
const errorsOf = async (r: Registry): Promise<number> =>
  (await r.getSingleMetric('apiserver_audit_error_total')!.get()).values.reduce(
    (n, v) => n + v.value,
    0
  );

function recorder() {
  const batches: AuditEvent[][] = [];
  return {
    batches,
    backend: {
      processEvents: (...es: AuditEvent[]) => (batches.push(es), true),
      shutdown: () => Promise.resolve(),
    },
  };
}

test('an event over the limit loses its objects and is marked; one small enough is untouched', () => {
  const small = ev('small', 'RequestResponse', 10);
  const limit = size(small) + 10;
  const r = recorder();
  const b = truncatingBackend(r.backend, { maxEventSize: limit, maxBatchSize: 10 * limit });
  assert.equal(b.processEvents(small, ev('big', 'RequestResponse', 2 * limit)), true);
  const [got] = r.batches;
  assert.deepEqual(got![0], small);
  assert.equal(got![1]!.requestObject, undefined);
  assert.equal(got![1]!.responseObject, undefined);
  assert.deepEqual(got![1]!.annotations, { [truncatedAnnotation]: 'true' });
});

test('too large even without objects, or at Metadata: dropped and counted', async () => {
  const registry = new Registry();
  const r = recorder();
  const b = truncatingBackend(
    r.backend,
    { maxEventSize: 100, maxBatchSize: 1000 },
    new AuditMetrics(registry)
  );
  const huge = { ...ev('meta', 'Metadata'), requestURI: `/${'p'.repeat(200)}` };
  assert.equal(b.processEvents(huge), true, 'stored as far as the request is concerned');
  assert.deepEqual(r.batches, []);
  assert.equal(await errorsOf(registry), 1);
});

test('the events of one call are split into batches under the batch size, in order', () => {
  const es = ['a', 'b', 'c', 'd', 'e'].map((id) => ev(id, 'Metadata'));
  const one = size(es[0]!);
  const r = recorder();
  const b = truncatingBackend(r.backend, { maxEventSize: one, maxBatchSize: 2 * one + 1 });
  assert.equal(b.processEvents(...es), true);
  assert.deepEqual(
    r.batches.map((b) => b.map((e) => e.auditID)),
    [['a', 'b'], ['c', 'd'], ['e']]
  );
});

test('blocking answers stored even when the send fails (counted); blocking-strict answers not stored', async () => {
  const registry = new Registry();
  const metrics = new AuditMetrics(registry);
  const failing = () => Promise.reject(new Error('down'));
  assert.equal(
    await blockingBackend('webhook', failing, false, metrics).processEvents(ev('1', 'Metadata')),
    true
  );
  assert.equal(
    await blockingBackend('webhook', failing, true, metrics).processEvents(ev('2', 'Metadata')),
    false
  );
  assert.equal(await errorsOf(registry), 2);
  const throwing = () => {
    throw new Error('disk full');
  };
  assert.equal(
    blockingBackend('log', throwing, true, metrics).processEvents(ev('3', 'Metadata')),
    false
  );
});
