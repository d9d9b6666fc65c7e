import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyMergePatch } from './merge-patch.js';

test('applyMergePatch: RFC 7386 appendix A examples', () => {
  const cases: [original: unknown, patch: unknown, result: unknown][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [original, patch, result] of cases) {
    assert.deepEqual(
      applyMergePatch(original, patch),
      result,
      `${JSON.stringify(original)} + ${JSON.stringify(patch)}`
    );
  }
});

test('applyMergePatch: RFC 7386 section 3 example', () => {
  const target = {
    title: 'Goodbye!',
    author: { givenName: 'John', familyName: 'Doe' },
    tags: ['example', 'sample'],
    content: 'This will be unchanged',
  };
  const patch = {
    title: 'Hello!',
    phoneNumber: '+01-123-456-7890',
    author: { familyName: null },
    tags: ['example'],
  };
  assert.deepEqual(applyMergePatch(target, patch), {
    title: 'Hello!',
    author: { givenName: 'John' },
    tags: ['example'],
    content: 'This will be unchanged',
    phoneNumber: '+01-123-456-7890',
  });
});

test('applyMergePatch on a k8s object: labels, deletions, absent targets', () => {
  const pod = {
    metadata: { name: 'p', labels: { app: 'web', tier: 'fe' } },
    spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
  };
  assert.deepEqual(
    applyMergePatch(pod, {
      metadata: { labels: { tier: null, env: 'prod' } },
      spec: { containers: [{ name: 'c', image: 'nginx:2' }] },
    }),
    {
      metadata: { name: 'p', labels: { app: 'web', env: 'prod' } },
      spec: { containers: [{ name: 'c', image: 'nginx:2' }] },
    }
  );
  assert.deepEqual(applyMergePatch(undefined, { a: { b: null, c: 1 } }), { a: { c: 1 } });
  assert.deepEqual(applyMergePatch({ a: 1 }, {}), { a: 1 });
  assert.deepEqual(applyMergePatch({ a: 1 }, { b: null }), { a: 1 });
});

test('applyMergePatch does not mutate or alias its inputs', () => {
  const target = { a: { b: 1, list: [1, 2] }, keep: { deep: { x: 1 } } };
  const patch = { a: { b: null, c: { d: [3] } }, e: [{ f: 1 }] };
  const targetCopy = structuredClone(target);
  const patchCopy = structuredClone(patch);
  const result = applyMergePatch(target, patch) as {
    a: { c: { d: number[] } };
    keep: { deep: { x: number } };
    e: { f: number }[];
  };
  assert.deepEqual(target, targetCopy);
  assert.deepEqual(patch, patchCopy);
  result.a.c.d.push(4);
  result.keep.deep.x = 2;
  result.e[0]!.f = 2;
  assert.deepEqual(target, targetCopy);
  assert.deepEqual(patch, patchCopy);
});

test('applyMergePatch keeps a __proto__ key as data', () => {
  const patch = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown;
  const result = applyMergePatch({}, patch) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(result), Object.prototype);
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  assert.ok(Object.hasOwn(result, '__proto__'));
  assert.equal(result['a'], 1);
  assert.equal(JSON.stringify(result), '{"__proto__":{"polluted":true},"a":1}');
});
