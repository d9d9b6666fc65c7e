// The audit flags completed: the modes each backend knows (the log backend has no batch mode),
// the truncation settings only when enabled, and their checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { auditFlags, completeAuditOptions } from './audit-options.js';

/** The flags' defaults, as the parser fills them in. */
const defaults = Object.fromEntries(
  Object.entries(auditFlags).flatMap(([k, d]) => ('default' in d ? [[k, d.default]] : []))
);
const complete = (f: Parameters<typeof completeAuditOptions>[0]) => {
  const problems: string[] = [];
  return { o: completeAuditOptions({ ...defaults, ...f }, problems), problems };
};

test('modes: webhook batch (default), blocking, blocking-strict; log blocking (default), blocking-strict', () => {
  const base = { 'audit-log-path': '-', 'audit-webhook-config-file': '/x' };
  const d = complete(base);
  assert.deepEqual(d.problems, []);
  assert.equal(d.o.webhook?.mode, 'batch');
  assert.equal(d.o.log?.strict, false);
  const s = complete({
    ...base,
    'audit-webhook-mode': 'blocking-strict',
    'audit-log-mode': 'blocking-strict',
  });
  assert.deepEqual(s.problems, []);
  assert.equal(s.o.webhook?.mode, 'blocking-strict');
  assert.equal(s.o.log?.strict, true);
  assert.deepEqual(complete({ ...base, 'audit-log-mode': 'batch' }).problems, [
    '--audit-log-mode: invalid value "batch": one of blocking, blocking-strict',
  ]);
  assert.deepEqual(complete({ ...base, 'audit-webhook-mode': 'later' }).problems, [
    '--audit-webhook-mode: invalid value "later": one of batch, blocking, blocking-strict',
  ]);
});

test('truncation: off unless enabled, upstream defaults, the event size within the batch size', () => {
  const base = { 'audit-webhook-config-file': '/x' };
  assert.equal(complete(base).o.webhook?.truncate, undefined);
  assert.deepEqual(
    complete({ ...base, 'audit-webhook-truncate-enabled': true }).o.webhook?.truncate,
    {
      maxBatchSize: 10 * 1024 * 1024,
      maxEventSize: 100 * 1024,
    }
  );
  assert.deepEqual(
    complete({
      'audit-log-path': '-',
      'audit-log-truncate-enabled': true,
      'audit-log-truncate-max-batch-size': '1000',
      'audit-log-truncate-max-event-size': '2000',
    }).problems,
    [
      '--audit-log-truncate-max-event-size: must not be greater than --audit-log-truncate-max-batch-size',
    ]
  );
});
