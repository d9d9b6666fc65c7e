// The watch cache's sorted keys in blocks, against a plain sorted array: every version answers
// lowerBound, has, at and forEachFrom as the array would, through inserts and deletes in one
// block (splits), everywhere (rebuilds), down to nothing; and a version is never changed by the
// versions made from it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '@orch/testing';
import { SortedKeys, lowerBound } from './sorted-keys.js';

const key = (n: number): string => `/registry/core/pods/ns/p${String(n).padStart(6, '0')}`;

/** Every question a reader asks, of `keys` against the sorted array `want`. */
function assertSame(keys: SortedKeys, want: readonly string[], what: string): void {
  assert.equal(keys.length, want.length, `${what}: length`);
  assert.deepEqual(keys.toArray(), want, `${what}: keys`);
  for (const probe of [key(-1), key(0), key(999_999), '', '\uffff', ...want.slice(0, 3)]) {
    assert.equal(keys.lowerBound(probe), lowerBound(want, probe), `${what}: lowerBound ${probe}`);
  }
  const step = Math.max(1, Math.floor(want.length / 40));
  for (let i = 0; i < want.length; i += step) {
    assert.equal(keys.at(i), want[i], `${what}: at ${i}`);
    assert.equal(keys.lowerBound(want[i]!), i, `${what}: lowerBound of key ${i}`);
    assert.ok(keys.has(want[i]!), `${what}: has ${i}`);
    assert.ok(!keys.has(`${want[i]!}x`), `${what}: has a key between`);
    const seen: string[] = [];
    keys.forEachFrom(i, (k, at) => {
      assert.equal(at, i + seen.length, `${what}: forEachFrom index`);
      seen.push(k);
      return seen.length < 700; // across a block boundary or two
    });
    assert.deepEqual(seen, want.slice(i, i + 700), `${what}: forEachFrom ${i}`);
  }
  assert.equal(keys.at(want.length), undefined);
}

/** `want` with `changed` present or absent as `has` says. */
function applied(want: readonly string[], changed: readonly string[], has: Set<string>): string[] {
  const out = new Set(want);
  for (const k of changed) {
    if (has.has(k)) out.add(k);
    else out.delete(k);
  }
  return [...out].sort();
}

test('every version answers as a sorted array does, through inserts and deletes large and small', () => {
  const next = seededRandom(11);
  const present = new Set<string>();
  let keys = SortedKeys.empty;
  let want: string[] = [];
  const versions: [SortedKeys, string[]][] = [];
  for (let round = 0; round < 120; round++) {
    // Mostly a few keys (as between the lists of a busy collection); now and then many.
    const many = next() < 0.1;
    const n = many ? Math.floor(next() * 3000) : Math.floor(next() * 20);
    // Some rounds all in one narrow range: one block grows past its size and splits.
    const narrow = next() < 0.3 ? Math.floor(next() * 9000) : -1;
    const changed = new Set<string>();
    for (let c = 0; c < n; c++) {
      const k = key(narrow >= 0 ? narrow + Math.floor(next() * 800) : Math.floor(next() * 10_000));
      changed.add(k);
      // Deletes outweigh adds in the last rounds: the keys go down to a few.
      if (next() < (round > 100 ? 0.9 : 0.3)) present.delete(k);
      else present.add(k);
    }
    const sorted = [...changed].sort();
    keys = keys.updated(sorted, (k) => present.has(k));
    want = applied(want, sorted, present);
    assertSame(keys, want, `round ${round}`);
    versions.push([keys, want]);
  }
  versions.forEach(([v, w], i) => assertSame(v, w, `version ${i}, read again at the end`));
});

test('a block that grows past its size by small updates splits, and every version still reads right', () => {
  const next = seededRandom(5);
  let want = Array.from({ length: 2000 }, (_, i) => key(i * 10));
  let keys = SortedKeys.of(want);
  const present = new Set(want);
  const versions: [SortedKeys, string[]][] = [];
  // 10 keys at a time (a few, as between lists) into one range of 1,000: about 600 keys where
  // a block held 100 (several splits).
  for (let round = 0; round < 120; round++) {
    const changed = new Set<string>();
    while (changed.size < 10) changed.add(key(5000 + Math.floor(next() * 1000)));
    for (const k of changed) present.add(k);
    const sorted = [...changed].sort();
    keys = keys.updated(sorted, (k) => present.has(k));
    want = applied(want, sorted, present);
    versions.push([keys, want]);
  }
  assert.ok(want.length > 2500, 'the range filled up');
  versions.forEach(([v, w], i) => assertSame(v, w, `version ${i}`));
});

test('a version made from sorted keys', () => {
  const want = Array.from({ length: 2000 }, (_, i) => key(i * 3));
  assertSame(SortedKeys.of(want), want, 'of');
  assertSame(SortedKeys.of([]), [], 'empty');
  assertSame(
    SortedKeys.empty.updated([key(5)], () => true),
    [key(5)],
    'one key into none'
  );
  assertSame(
    SortedKeys.of([key(5)]).updated([key(5)], () => false),
    [],
    'the last key out'
  );
});
