// sampleSum: the bench's reading of /metrics text, on an exposition as prom-client writes it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sampleSum } from './prom-text.js';

const text = `# HELP orch_gateway_watch_cache_revision_reads_total Reads.
# TYPE orch_gateway_watch_cache_revision_reads_total counter
orch_gateway_watch_cache_revision_reads_total{source="publisher",component="gateway"} 12
orch_gateway_watch_cache_revision_reads_total{source="storage",component="gateway"} 3
orch_gateway_watch_cache_revision_reads_total_extra 100
nodejs_eventloop_lag_p99_seconds 0.0123
orch_x_seconds_sum{resource="a\\"b",component="gateway"} 1.5 1700000000000
`;

test('sums the series of a name whose labels include the ones asked for; undefined when none matches', () => {
  const reads = 'orch_gateway_watch_cache_revision_reads_total';
  assert.equal(sampleSum(text, reads), 15);
  assert.equal(sampleSum(text, reads, { source: 'storage' }), 3);
  assert.equal(sampleSum(text, reads, { source: 'nobody' }), undefined);
  assert.equal(sampleSum(text, 'nodejs_eventloop_lag_p99_seconds'), 0.0123);
  assert.equal(sampleSum(text, 'orch_x_seconds_sum', { resource: 'a"b' }), 1.5);
  assert.equal(sampleSum(text, 'absent'), undefined);
});
