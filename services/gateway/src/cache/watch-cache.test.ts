// The watch cache's ordered keys: new keys are merged in when a snapshot needs them (not moved
// into place on every change), and a snapshot lists exactly the objects held, in key order, once
// each, whatever the adds, deletes and re-adds between snapshots. A snapshot's objects are not
// copied: a kept snapshot reads them as they were, however they changed since.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '@orch/testing';
import { WatchCache } from './watch-cache.js';
import type { Snapshot } from './watch-cache.js';

const prefix = '/registry/core/configmaps/';
const cm = (name: string, v: number) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns', resourceVersion: String(v) },
});

/** The resourceVersion of each object of a snapshot, in key order. */
const versions = (snap: Snapshot): string[] => {
  const out: string[] = [];
  snap.forEachFrom(0, (_, o) => {
    out.push((o as ReturnType<typeof cm>).metadata.resourceVersion);
    return true;
  });
  return out;
};

/**
 * `changes` random changes of names k0..k<names - 1> after `revision`: a held name is deleted
 * with chance `deletes`, otherwise added or modified; `held` (name -> revision) follows. Answers
 * the last revision.
 */
function churn(
  cache: WatchCache,
  held: Map<string, number>,
  next: () => number,
  revision: number,
  changes: number,
  names: number,
  deletes: number
): number {
  for (let c = 0; c < changes; c++) {
    const name = `k${Math.floor(next() * names)}`;
    revision++;
    if (held.has(name) && next() < deletes) {
      cache.change('DELETED', cm(name, revision), revision);
      held.delete(name);
    } else {
      cache.change(held.has(name) ? 'MODIFIED' : 'ADDED', cm(name, revision), revision);
      held.set(name, revision);
    }
  }
  return revision;
}

test('snapshots list every object held once, in key order, through adds, deletes and re-adds', () => {
  const cache = new WatchCache({ prefix });
  cache.replace([cm('b', 1), cm('a', 1)], 1);
  const held = new Map<string, number>([
    ['a', 1],
    ['b', 1],
  ]);
  const next = seededRandom(42);
  let revision = 1;
  for (let round = 0; round < 200; round++) {
    revision = churn(cache, held, next, revision, Math.floor(next() * 20), 60, 0.5);
    const snap = cache.snapshot();
    const want = [...held.keys()].sort().map((n) => `${prefix}ns/${n}`);
    assert.deepEqual(snap.keys.toArray(), want, `round ${round}`);
    assert.deepEqual(
      versions(snap),
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
  assert.deepEqual(before.keys.toArray(), [`${prefix}ns/a`, `${prefix}ns/c`]);
  assert.deepEqual(cache.snapshot().keys.toArray(), [`${prefix}ns/b`, `${prefix}ns/c`]);
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
  assert.deepEqual(cache.snapshot().keys.toArray(), [`${prefix}ns/y`]);
});

test('a few keys added between snapshots are moved into place (the path of lists between creates)', () => {
  const cache = new WatchCache({ prefix });
  cache.replace([cm('b', 1), cm('d', 1)], 1);
  const before = cache.snapshot();
  cache.change('ADDED', cm('e', 2), 2);
  cache.change('ADDED', cm('a', 3), 3);
  cache.change('ADDED', cm('c', 4), 4);
  const keys = cache
    .snapshot()
    .keys.toArray()
    .map((k) => k.slice(`${prefix}ns/`.length));
  assert.deepEqual(keys, ['a', 'b', 'c', 'd', 'e']);
  assert.equal(before.keys.length, 2, 'the earlier snapshot is untouched');
});

test('a kept snapshot reads its objects as they were, through later changes, deletes and re-adds of them', () => {
  const cache = new WatchCache({ prefix, snapshots: 4 });
  cache.replace([cm('a', 1), cm('b', 1), cm('c', 1)], 1);
  const held = new Map<string, number>([
    ['a', 1],
    ['b', 1],
    ['c', 1],
  ]);
  // Each snapshot's objects as they were when it was taken, by revision.
  const taken = new Map<number, string[]>();
  const next = seededRandom(7);
  let revision = 1;
  for (let round = 0; round < 300; round++) {
    revision = churn(cache, held, next, revision, Math.floor(next() * 6), 12, 0.4);
    if (next() < 0.5) {
      const snap = cache.snapshot();
      taken.set(snap.revision, versions(snap));
    }
    for (const [rev, want] of taken) {
      const kept = cache.snapshotAt(rev);
      if (kept) assert.deepEqual(versions(kept), want, `round ${round}, snapshot at ${rev}`);
      else taken.delete(rev); // no longer kept (4 at most)
    }
  }
  assert.ok(taken.size > 1, 'several snapshots were kept and read back');
});

test('a snapshot is read only while kept: after the cache drops it, or a relist, a read fails', () => {
  const cache = new WatchCache({ prefix, snapshots: 1 });
  cache.replace([cm('a', 1)], 1);
  const first = cache.snapshot();
  cache.change('MODIFIED', cm('a', 2), 2);
  assert.equal(versions(first)[0], '1', 'kept: read as it was');
  const second = cache.snapshot(); // only one is kept: the first goes
  assert.throws(() => versions(first), /dropped/);
  assert.equal(versions(second)[0], '2');
  cache.replace([cm('a', 3)], 3);
  assert.equal(cache.snapshotAt(2), undefined, 'a relist drops the snapshots');
  assert.throws(() => versions(second), /dropped/);
  assert.equal(versions(cache.snapshot())[0], '3');
});

test('a snapshot at a later revision without changes since shares the objects of the one before', () => {
  const cache = new WatchCache({ prefix });
  cache.replace([cm('a', 1)], 1);
  const before = cache.snapshot();
  cache.progress(5);
  const after = cache.snapshot();
  assert.equal(after.revision, 5);
  cache.change('MODIFIED', cm('a', 6), 6);
  assert.deepEqual([versions(before), versions(after)], [['1'], ['1']]);
  assert.deepEqual(versions(cache.snapshot()), ['6']);
});
