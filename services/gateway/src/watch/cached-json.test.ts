// The cache's objects keep their JSON bytes: the bytes are JSON.stringify's, encoded once per
// object (the same Buffer for every list and event that writes it), and a new object (an update
// replaces the cached object, never changes it) gets bytes of its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cachedJson } from './cached-json.js';

test('cachedJson: JSON.stringify as UTF-8, encoded once per object', () => {
  const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'é<&>' }, data: { a: 'b' } };
  const first = cachedJson(obj);
  assert.equal(first.toString('utf8'), JSON.stringify(obj));
  assert.equal(cachedJson(obj), first, 'the same bytes, not encoded again');
  const next = { ...obj, data: { a: 'c' } };
  assert.equal(cachedJson(next).toString('utf8'), JSON.stringify(next));
  assert.notEqual(cachedJson(next), first);
});
