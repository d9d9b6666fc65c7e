// Field-set algebra, as structured-merge-diff fieldpath/set_test.go checks it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Path } from './path.js';
import { makePath, pathString } from './path.js';
import { keyByFields } from './element.js';
import { Set } from './set.js';
import { newExcludeSetFilter } from './filter.js';

const p = (...parts: (string | number | ReturnType<typeof keyByFields>)[]): Path =>
  makePath(...parts);
const set = (...paths: Path[]): Set => Set.of(...paths);
const lines = (s: Set): string[] => s.paths().map(pathString);

const a = p('a');
const ab = p('a', 'b');
const abc = p('a', 'b', 'c');
const ak = p('a', keyByFields('name', 'x'));
const akv = p('a', keyByFields('name', 'x'), 'value');
const c = p('c');
const d = p('d', { value: 'v' });

test('field-set algebra: union, intersection, difference and recursive difference', () => {
  const rows: {
    name: string;
    op: (x: Set, y: Set) => Set;
    x: Path[];
    y: Path[];
    want: Path[];
  }[] = [
    {
      name: 'union joins both',
      op: (x, y) => x.union(y),
      x: [a, ab],
      y: [abc, c],
      want: [a, c, ab, abc],
    },
    {
      name: 'union of a set with itself is the set',
      op: (x, y) => x.union(y),
      x: [a, akv],
      y: [a, akv],
      want: [a, akv],
    },
    {
      name: 'union with the empty set',
      op: (x, y) => x.union(y),
      x: [],
      y: [ak, d],
      want: [ak, d],
    },
    {
      name: 'intersection keeps common paths',
      op: (x, y) => x.intersection(y),
      x: [a, ab, akv],
      y: [ab, akv, c],
      want: [ab, akv],
    },
    {
      name: 'intersection of disjoint sets is empty',
      op: (x, y) => x.intersection(y),
      x: [a],
      y: [ab],
      want: [],
    },
    {
      name: 'difference drops common paths',
      op: (x, y) => x.difference(y),
      x: [a, ab, abc, c],
      y: [ab, c],
      want: [a, abc],
    },
    {
      name: 'difference: a member does not remove the paths below it',
      op: (x, y) => x.difference(y),
      x: [a, ab, abc],
      y: [a],
      want: [ab, abc],
    },
    {
      name: 'recursive difference: a member removes the paths below it',
      op: (x, y) => x.recursiveDifference(y),
      x: [a, ab, abc, c, akv],
      y: [a],
      want: [c],
    },
    {
      name: 'recursive difference at depth',
      op: (x, y) => x.recursiveDifference(y),
      x: [a, ab, abc, akv],
      y: [ab],
      want: [a, akv],
    },
  ];
  for (const r of rows) {
    const got = r.op(set(...r.x), set(...r.y));
    assert.ok(got.equals(set(...r.want)), `${r.name}: got\n${got.toString()}`);
    // Operands are not changed.
    assert.ok(set(...r.x).equals(set(...r.x)));
  }
});

test('field-set algebra: algebraic laws hold on random sets', () => {
  let seed = 7;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const names = ['a', 'b', 'c'];
  const randomPath = (): Path => {
    const parts: Path[number][] = [];
    const len = 1 + rnd(4);
    for (let i = 0; i < len; i++) {
      const kind = rnd(4);
      if (kind === 0) parts.push({ fieldName: names[rnd(3)] as string });
      else if (kind === 1) parts.push(keyByFields('name', names[rnd(3)] as string));
      else if (kind === 2) parts.push({ value: rnd(3) });
      else parts.push({ index: rnd(3) });
    }
    return parts;
  };
  for (let round = 0; round < 200; round++) {
    const x = set(...Array.from({ length: 8 }, randomPath));
    const y = set(...Array.from({ length: 8 }, randomPath));
    assert.ok(x.union(y).equals(y.union(x)), 'union commutes');
    assert.ok(x.intersection(y).equals(y.intersection(x)), 'intersection commutes');
    // (x - y) ∪ (x ∩ y) = x, and the two are disjoint.
    assert.ok(x.difference(y).union(x.intersection(y)).equals(x), 'x = (x - y) ∪ (x ∩ y)');
    assert.ok(x.difference(y).intersection(y).empty(), '(x - y) ∩ y = ∅');
    for (const path of x.union(y).paths())
      assert.equal(x.union(y).has(path), x.has(path) || y.has(path));
    assert.equal(x.size(), x.paths().length);
  }
});

test('Set: insert, has, size, iteration order, leaves, withPrefix', () => {
  const s = new Set();
  s.insert(akv);
  s.insert(c);
  s.insert(a);
  s.insert(ab);
  s.insert(a);
  s.insert([]);
  assert.equal(s.size(), 4);
  assert.ok(s.has(a) && s.has(akv) && !s.has(ak) && !s.has(p('z')) && !s.has([]));
  // Members of a level before the levels below it; fields < keys < values < indexes.
  assert.deepEqual(lines(s), ['.a', '.c', '.a.b', '.a[name="x"].value']);
  // a is a prefix of other paths, so it is not a leaf.
  assert.deepEqual(lines(s.leaves()), ['.c', '.a.b', '.a[name="x"].value']);
  assert.deepEqual(lines(s.withPrefix({ fieldName: 'a' })), ['.b', '[name="x"].value']);
  assert.ok(s.withPrefix({ fieldName: 'q' }).empty());
  assert.ok(new Set().empty());
});

test('path strings name fields as conflicts report them', () => {
  assert.equal(
    pathString(p('spec', 'template', 'spec', 'containers', keyByFields('name', 'nginx'), 'image')),
    '.spec.template.spec.containers[name="nginx"].image'
  );
  assert.equal(
    pathString(p('ports', keyByFields('protocol', 'TCP', 'containerPort', 80))),
    '.ports[containerPort=80,protocol="TCP"]'
  );
  assert.equal(pathString(p('finalizers', { value: 'x' }, 3)), '.finalizers[="x"][3]');
});

test('newExcludeSetFilter drops the excluded paths and everything below them', () => {
  const status = newExcludeSetFilter(set(p('status')));
  assert.deepEqual(lines(status(set(p('spec', 'replicas'), p('status'), p('status', 'phase')))), [
    '.spec.replicas',
  ]);
});
