// The watch cache's ordered keys: new keys are merged in when a snapshot needs them (not moved
// into place on every change), and a snapshot lists exactly the objects held, in key order, once
// each, whatever the adds, deletes and re-adds between snapshots.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WatchCache } from './watch-cache.js';

const prefix = '/registry/core/configmaps/';
const cm = (name: string, v: number) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns', resourceVersion: String(v) },
});

/** A deterministic pseudo-random sequence (xorshift), so that a failure can be replayed. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

test('snapshots list every object held once, in key order, through adds, deletes and re-adds', () => {
  const cache = new WatchCache({ prefix });
  cache.replace([cm('b', 1), cm('a', 1)], 1);
  const held = new Map<string, number>([
    ['a', 1],
    ['b', 1],
  ]);
  const next = random(42);
  let revision = 1;
  for (let round = 0; round < 200; round++) {
    const changes = Math.floor(next() * 20);
    for (let c = 0; c < changes; c++) {
      const name = `k${Math.floor(next() * 60)}`;
      revision++;
      if (held.has(name) && next() < 0.5) {
        cache.change('DELETED', cm(name, revision), revision);
        held.delete(name);
      } else {
        cache.change(held.has(name) ? 'MODIFIED' : 'ADDED', cm(name, revision), revision);
        held.set(name, revision);
      }
    }
    const snap = cache.snapshot();
    const want = [...held.keys()].sort().map((n) => `${prefix}ns/${n}`);
    assert.deepEqual(snap.keys, want, `round ${round}`);
    assert.deepEqual(
      snap.objects.map((o) => (o as ReturnType<typeof cm>).metadata.resourceVersion),
      [...held.keys()].sort().map((n) => String(held.get(n))),
      `round ${round}`
    );
  }
});

test('a snapshot taken earlier keeps its keys while the cache changes', () => {
  const cache = new WatchCache({ prefix });
  cache.replace([cm('a', 1), cm('c', 1)], 1);
  const before = cache.snapshot();
  cache.change('ADDED', cm('b', 2), 2);
  cache.change('DELETED', cm('a', 3), 3);
  assert.deepEqual(before.keys, [`${prefix}ns/a`, `${prefix}ns/c`]);
  assert.deepEqual(cache.snapshot().keys, [`${prefix}ns/b`, `${prefix}ns/c`]);
});

test('keys changed without any snapshot are merged once they outnumber the objects held', () => {
  const cache = new WatchCache({ prefix, capacity: 10 });
  cache.replace([], 1);
  // Churn of one object, added and deleted 5,000 times: memory of the keys stays bounded.
  for (let i = 0; i < 5000; i++) {
    cache.change('ADDED', cm('x', 2 + 2 * i), 2 + 2 * i);
    cache.change('DELETED', cm('x', 3 + 2 * i), 3 + 2 * i);
  }
  cache.change('ADDED', cm('y', 20_000), 20_000);
  assert.deepEqual(cache.snapshot().keys, [`${prefix}ns/y`]);
});

test('a few keys added between snapshots are moved into place (the path of lists between creates)', () => {
  const cache = new WatchCache({ prefix });
  cache.replace([cm('b', 1), cm('d', 1)], 1);
  const before = cache.snapshot();
  cache.change('ADDED', cm('e', 2), 2);
  cache.change('ADDED', cm('a', 3), 3);
  cache.change('ADDED', cm('c', 4), 4);
  const keys = cache.snapshot().keys.map((k) => k.slice(`${prefix}ns/`.length));
  assert.deepEqual(keys, ['a', 'b', 'c', 'd', 'e']);
  assert.equal(before.keys.length, 2, 'the earlier snapshot is untouched');
});
