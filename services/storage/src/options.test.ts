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
