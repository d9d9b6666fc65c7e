// The storage service's options: flag defaults as the launchers rely on them, all errors at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidOptionsError } from '@orch/component-base/flags';
import { storageOptions } from './options.js';

test('storage options: defaults and derived values', () => {
  const o = storageOptions([
    '--etcd-servers=http://a:2379,http://b:2379',
    '--leader-elect-ttl=2500ms',
  ]);
  assert.deepEqual(o.etcdServers, ['http://a:2379', 'http://b:2379']);
  assert.equal(o.serving.securePort, 6501);
  assert.equal(o.compactionRetentionMs, 5 * 60_000);
  assert.equal(o.compactionIntervalMs, 60_000);
  assert.equal(o.progressIntervalMs, 1000);
  assert.equal(o.leaderTtlSeconds, 3);
  assert.equal(o.maxObjectBytes, 1556480);
});

test('storage options: every error at once', () => {
  try {
    storageOptions([
      '--compaction-interval=soon',
      '--max-object-size-bytes=-1',
      '--client-ca-file=ca',
    ]);
    assert.fail('accepted');
  } catch (err) {
    assert.ok(err instanceof InvalidOptionsError);
    assert.equal(err.errors.length, 3, err.message);
    assert.match(err.message, /--compaction-interval: invalid duration/);
    assert.match(err.message, /--max-object-size-bytes/);
    assert.match(err.message, /go together/);
  }
});

test('storage options: --feature-gates and --show-hidden-metrics-for-version refused with the bad key named', () => {
  const o = storageOptions(['--feature-gates=ConsistentListFromCache=false,WatchBookmark=true']);
  assert.equal(o.featureGates.gate.enabled('ConsistentListFromCache'), false);
  assert.deepEqual(o.featureGates.warnings, [
    'Setting GA feature gate WatchBookmark=true. It will be removed in a future release.',
  ]);
  assert.equal(
    storageOptions(['--show-hidden-metrics-for-version=1.31']).showHiddenMetricsForVersion,
    '1.31'
  );
  const rows: [string, RegExp][] = [
    ['--feature-gates=NoSuchGate=true', /--feature-gates: unrecognized feature gate: NoSuchGate/],
    [
      '--feature-gates=WatchBookmark=false',
      /cannot set feature gate WatchBookmark to false, feature is locked to true/,
    ],
    [
      '--feature-gates=ConsistentListFromCache=maybe',
      /invalid value of ConsistentListFromCache=maybe/,
    ],
    ['--show-hidden-metrics-for-version=1.29', /Only the previous minor version is allowed/],
  ];
  for (const [flag, message] of rows) {
    assert.throws(
      () => storageOptions([flag]),
      (err: unknown) => {
        assert.ok(err instanceof InvalidOptionsError);
        assert.match(err.message, message);
        return true;
      }
    );
  }
});
