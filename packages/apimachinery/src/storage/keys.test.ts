// Stored values: written in one key order without resourceVersion, read back with it, whether the
// fast path (a splice) or the slow one (parse and write again) is taken.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeFromStorage, encodeForStorage, withResourceVersion } from './keys.js';

const bytes = (v: unknown): Buffer => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));

test('encodeForStorage drops resourceVersion and puts apiVersion, kind and metadata first', () => {
  const stored = encodeForStorage(
    bytes({
      data: { a: '1' },
      metadata: { name: 'x', resourceVersion: '7' },
      kind: 'ConfigMap',
      apiVersion: 'v1',
    })
  );
  assert.equal(
    stored.toString(),
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"a":"1"}}'
  );
});

test('withResourceVersion answers the same object on the fast and the slow path', () => {
  const cases: [string, string | object][] = [
    [
      'as stored',
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'x', labels: { a: 'b' } },
        data: { k: 'v' },
      },
    ],
    ['empty metadata', { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }],
    [
      'non-ASCII name and data',
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'ü-x' },
        data: { k: 'ñ "quoted" \\ value' },
      },
    ],
    ['other key order', { metadata: { name: 'x' }, apiVersion: 'v1', kind: 'ConfigMap' }],
    [
      'a stale resourceVersion inside',
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', resourceVersion: '3' } },
    ],
    [
      'the text resourceVersion in data',
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'x' },
        data: { '"resourceVersion"': 'x' },
      },
    ],
    ['whitespace', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{ "name": "x" } }'],
    ['no metadata', { apiVersion: 'v1', kind: 'ConfigMap' }],
  ];
  for (const [name, v] of cases) {
    const value = bytes(v);
    const got = JSON.parse(withResourceVersion(value, 42).toString()) as Record<string, unknown>;
    assert.deepEqual(got, decodeFromStorage(value, 42), name);
    assert.equal((got['metadata'] as { resourceVersion: string }).resourceVersion, '42', name);
  }
});

test('a value as encodeForStorage writes it takes the splice', () => {
  const value = encodeForStorage(
    bytes({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { k: 'v' } })
  );
  assert.equal(
    withResourceVersion(value, 9).toString(),
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"resourceVersion":"9","name":"x"},"data":{"k":"v"}}'
  );
});
