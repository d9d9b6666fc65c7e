import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fillObjectMetaSystemFields,
  formatTimestamp,
  now,
  wipeObjectMetaSystemFields,
} from './system-fields.js';
import type { ObjectMeta } from './object-meta.js';

test('formatTimestamp writes RFC 3339 in UTC to the second', () => {
  const at = (...p: [number, number, number, number, number, number, number]) =>
    formatTimestamp(new Date(Date.UTC(...p)));
  assert.equal(at(2024, 4, 1, 10, 0, 7, 999), '2024-05-01T10:00:07Z');
  assert.equal(at(1999, 11, 31, 23, 59, 59, 0), '1999-12-31T23:59:59Z');
});

test('now has no fractional seconds and round-trips through Date', () => {
  const t = now();
  assert.match(t, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal(formatTimestamp(new Date(t)), t);
});

test('fill sets a fresh uid and creationTimestamp; wipe clears the server-set fields only', () => {
  const meta: ObjectMeta = {
    name: 'a',
    uid: 'client-uid',
    deletionTimestamp: 'x',
    labels: { k: 'v' },
  };
  fillObjectMetaSystemFields(meta);
  assert.notEqual(meta.uid, 'client-uid');
  assert.match(meta.uid ?? '', /^[0-9a-f-]{36}$/);
  assert.match(meta.creationTimestamp ?? '', /Z$/);
  const other: ObjectMeta = {};
  fillObjectMetaSystemFields(other);
  assert.notEqual(other.uid, meta.uid);
  meta.deletionGracePeriodSeconds = 30;
  wipeObjectMetaSystemFields(meta);
  assert.deepEqual(meta, { name: 'a', labels: { k: 'v' } });
});

test('now follows the clock from one second to the next (formatted once per second)', (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: Date.UTC(2024, 4, 1, 10, 0, 7, 998) });
  assert.equal(now(), '2024-05-01T10:00:07Z');
  t.mock.timers.tick(1);
  assert.equal(now(), '2024-05-01T10:00:07Z');
  t.mock.timers.tick(1);
  assert.equal(now(), '2024-05-01T10:00:08Z');
  t.mock.timers.tick(3600_000);
  assert.equal(now(), '2024-05-01T11:00:08Z');
});
