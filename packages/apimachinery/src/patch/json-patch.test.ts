import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyJsonPatch, maxJsonPatchCopyBytes, maxJsonPatchOperations } from './json-patch.js';
import { PatchError } from './patch-error.js';

test('applyJsonPatch applies each RFC 6902 operation', () => {
  const cases: [name: string, target: unknown, ops: unknown[], result: unknown][] = [
    ['add member', { a: 1 }, [{ op: 'add', path: '/b', value: 2 }], { a: 1, b: 2 }],
    ['add replaces existing member', { a: 1 }, [{ op: 'add', path: '/a', value: 2 }], { a: 2 }],
    [
      'add nested',
      { m: { labels: {} } },
      [{ op: 'add', path: '/m/labels/app', value: 'web' }],
      { m: { labels: { app: 'web' } } },
    ],
    ['add array insert', { l: [1, 3] }, [{ op: 'add', path: '/l/1', value: 2 }], { l: [1, 2, 3] }],
    ['add array append', { l: [1] }, [{ op: 'add', path: '/l/-', value: 2 }], { l: [1, 2] }],
    [
      'add escaped key',
      { a: {} },
      [{ op: 'add', path: '/a/example.com~1app', value: 'x' }],
      { a: { 'example.com/app': 'x' } },
    ],
    ['add tilde key', {}, [{ op: 'add', path: '/a~0b', value: 1 }], { 'a~b': 1 }],
    ['add root', { a: 1 }, [{ op: 'add', path: '', value: { b: 2 } }], { b: 2 }],
    ['remove member', { a: 1, b: 2 }, [{ op: 'remove', path: '/a' }], { b: 2 }],
    ['remove array element', { l: [1, 2, 3] }, [{ op: 'remove', path: '/l/1' }], { l: [1, 3] }],
    ['replace', { a: 1 }, [{ op: 'replace', path: '/a', value: { x: [1] } }], { a: { x: [1] } }],
    [
      'replace array element',
      { l: [1, 2] },
      [{ op: 'replace', path: '/l/0', value: 9 }],
      { l: [9, 2] },
    ],
    ['replace root', { a: 1 }, [{ op: 'replace', path: '', value: [1] }], [1]],
    [
      'move',
      { a: { b: 1 }, c: {} },
      [{ op: 'move', from: '/a/b', path: '/c/d' }],
      { a: {}, c: { d: 1 } },
    ],
    [
      'move array element',
      { l: [1, 2, 3] },
      [{ op: 'move', from: '/l/0', path: '/l/2' }],
      { l: [2, 3, 1] },
    ],
    [
      'copy',
      { a: { b: [1] } },
      [{ op: 'copy', from: '/a', path: '/c' }],
      { a: { b: [1] }, c: { b: [1] } },
    ],
    [
      'test passes',
      { a: { b: [1, 'x'] } },
      [{ op: 'test', path: '/a', value: { b: [1, 'x'] } }],
      { a: { b: [1, 'x'] } },
    ],
    [
      'test then replace (optimistic update)',
      { spec: { replicas: 3 } },
      [
        { op: 'test', path: '/spec/replicas', value: 3 },
        { op: 'replace', path: '/spec/replicas', value: 5 },
      ],
      { spec: { replicas: 5 } },
    ],
    [
      'sequence',
      { a: 1 },
      [
        { op: 'add', path: '/b', value: { c: [] } },
        { op: 'add', path: '/b/c/-', value: 1 },
        { op: 'copy', from: '/b', path: '/d' },
        { op: 'remove', path: '/a' },
        { op: 'move', from: '/d/c', path: '/e' },
      ],
      { b: { c: [1] }, d: {}, e: [1] },
    ],
    ['empty patch', { a: 1 }, [], { a: 1 }],
  ];
  for (const [name, target, ops, result] of cases) {
    assert.deepEqual(applyJsonPatch(target, ops), result, name);
  }
});

test('applyJsonPatch does not mutate or alias its inputs', () => {
  const target = { a: { b: [1, 2] }, c: 1 };
  const ops = [
    { op: 'add', path: '/x', value: { y: [1] } },
    { op: 'add', path: '/x/y/-', value: 2 },
    { op: 'remove', path: '/a/b/0' },
    { op: 'replace', path: '/c', value: 2 },
  ];
  const targetCopy = structuredClone(target);
  const opsCopy = structuredClone(ops);
  const result = applyJsonPatch(target, ops) as { x: { y: number[] }; a: { b: number[] } };
  assert.deepEqual(result, { a: { b: [2] }, c: 2, x: { y: [1, 2] } });
  assert.deepEqual(target, targetCopy);
  assert.deepEqual(ops, opsCopy);
  result.x.y.push(3);
  result.a.b.push(3);
  assert.deepEqual(target, targetCopy);
  assert.deepEqual(ops, opsCopy);
});

test('applyJsonPatch throws PatchError for invalid or failing operations', () => {
  const cases: [
    name: string,
    target: unknown,
    ops: unknown,
    code: string | undefined,
    index: number | undefined,
    messagePart: string,
  ][] = [
    [
      'not an array',
      {},
      { op: 'add', path: '/a', value: 1 },
      'SEQUENCE_NOT_AN_ARRAY',
      undefined,
      'must be an array of operations',
    ],
    ['null ops', {}, null, 'SEQUENCE_NOT_AN_ARRAY', undefined, 'must be an array'],
    [
      'op not an object',
      {},
      ['add'],
      'OPERATION_NOT_AN_OBJECT',
      0,
      'json patch operation 0: Operation is not an object',
    ],
    [
      'unknown op',
      {},
      [{ op: 'merge', path: '/a', value: 1 }],
      'OPERATION_OP_INVALID',
      0,
      'operation 0 (merge "/a")',
    ],
    [
      'missing op',
      {},
      [{ path: '/a', value: 1 }],
      'OPERATION_OP_INVALID',
      0,
      'not one of operations defined in RFC-6902',
    ],
    [
      'path not a string',
      {},
      [{ op: 'add', path: 1, value: 1 }],
      'OPERATION_PATH_INVALID',
      0,
      'is not a string',
    ],
    [
      'path without slash',
      {},
      [{ op: 'add', path: 'a', value: 1 }],
      'OPERATION_PATH_INVALID',
      0,
      'must start with "/"',
    ],
    [
      'add without value',
      {},
      [{ op: 'add', path: '/a' }],
      'OPERATION_VALUE_REQUIRED',
      0,
      '`value` property is not present',
    ],
    [
      'value containing undefined',
      {},
      [{ op: 'add', path: '/a', value: { b: undefined } }],
      'OPERATION_VALUE_CANNOT_CONTAIN_UNDEFINED',
      0,
      'operation 0 (add "/a")',
    ],
    [
      'move without from',
      { a: 1 },
      [{ op: 'move', path: '/b' }],
      'OPERATION_FROM_REQUIRED',
      0,
      '`from` property is not present',
    ],
    [
      'second op invalid',
      {},
      [
        { op: 'add', path: '/a', value: 1 },
        { op: 'copy', path: '/b' },
      ],
      'OPERATION_FROM_REQUIRED',
      1,
      'operation 1 (copy "/b")',
    ],
    [
      'remove missing member',
      { a: 1 },
      [{ op: 'remove', path: '/b' }],
      'OPERATION_PATH_UNRESOLVABLE',
      0,
      'path that does not exist',
    ],
    [
      'replace missing member',
      { a: 1 },
      [
        { op: 'add', path: '/c', value: 1 },
        { op: 'replace', path: '/b', value: 1 },
      ],
      'OPERATION_PATH_UNRESOLVABLE',
      1,
      'operation 1 (replace "/b")',
    ],
    [
      'add under missing parent',
      {},
      [{ op: 'add', path: '/a/b', value: 1 }],
      'OPERATION_PATH_CANNOT_ADD',
      0,
      'Cannot perform an `add` operation',
    ],
    [
      'add past array end',
      { l: [1] },
      [{ op: 'add', path: '/l/5', value: 1 }],
      'OPERATION_VALUE_OUT_OF_BOUNDS',
      0,
      'MUST NOT be greater than the number of elements',
    ],
    [
      'bad array index',
      { l: [1] },
      [{ op: 'add', path: '/l/x', value: 1 }],
      'OPERATION_PATH_ILLEGAL_ARRAY_INDEX',
      0,
      'unsigned base-10 integer',
    ],
    [
      'replace at non-index',
      { l: [1] },
      [{ op: 'replace', path: '/l/x', value: 1 }],
      'OPERATION_PATH_UNRESOLVABLE',
      0,
      'path that does not exist',
    ],
    [
      'remove past array end',
      { l: [1] },
      [{ op: 'remove', path: '/l/3' }],
      'OPERATION_PATH_UNRESOLVABLE',
      0,
      'path that does not exist',
    ],
    [
      'move from missing',
      { a: 1 },
      [{ op: 'move', from: '/x', path: '/b' }],
      'OPERATION_FROM_UNRESOLVABLE',
      0,
      'from a path that does not exist',
    ],
    [
      'copy from missing',
      { a: 1 },
      [{ op: 'copy', from: '/x/y', path: '/b' }],
      'OPERATION_FROM_UNRESOLVABLE',
      0,
      'from a path that does not exist',
    ],
    [
      'move into own child',
      { a: { b: 1 } },
      [{ op: 'move', from: '/a', path: '/a/c' }],
      'OPERATION_FROM_PREFIX_OF_PATH',
      0,
      'may not be a prefix',
    ],
    [
      'test fails',
      { a: 1 },
      [{ op: 'test', path: '/a', value: 2 }],
      'TEST_OPERATION_FAILED',
      0,
      'test failed: the value at "/a" is not equal to 2',
    ],
    [
      'test of missing path fails',
      { a: 1 },
      [{ op: 'test', path: '/b', value: 1 }],
      'TEST_OPERATION_FAILED',
      0,
      'operation 0 (test "/b")',
    ],
    [
      'test type mismatch',
      { a: 1 },
      [{ op: 'test', path: '/a', value: '1' }],
      'TEST_OPERATION_FAILED',
      0,
      'not equal to "1"',
    ],
    [
      'test after changes fails',
      { a: 1 },
      [
        { op: 'replace', path: '/a', value: 2 },
        { op: 'test', path: '/a', value: 1 },
      ],
      'TEST_OPERATION_FAILED',
      1,
      'operation 1 (test "/a")',
    ],
    [
      'prototype pollution',
      {},
      [{ op: 'add', path: '/__proto__/polluted', value: 1 }],
      undefined,
      0,
      'banned',
    ],
  ];
  for (const [name, target, ops, code, index, messagePart] of cases) {
    assert.throws(
      () => applyJsonPatch(target, ops),
      (err: unknown) => {
        assert.ok(err instanceof PatchError, `${name}: not a PatchError: ${String(err)}`);
        assert.equal(err.name, 'PatchError', name);
        assert.equal(err.code, code, name);
        assert.equal(err.operationIndex, index, name);
        assert.ok(
          err.message.includes(messagePart),
          `${name}: ${JSON.stringify(err.message)} lacks ${JSON.stringify(messagePart)}`
        );
        assert.ok(!err.message.includes('\n'), `${name}: message is one line`);
        return true;
      },
      name
    );
  }
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
});

test('applyJsonPatch leaves the target untouched when a later operation fails', () => {
  const target = { a: 1 };
  assert.throws(() =>
    applyJsonPatch(target, [
      { op: 'add', path: '/b', value: 2 },
      { op: 'test', path: '/a', value: 5 },
    ])
  );
  assert.deepEqual(target, { a: 1 });
});

test('applyJsonPatch refuses more than the maximum number of operations', () => {
  const ops = Array.from({ length: maxJsonPatchOperations + 1 }, () => ({
    op: 'test',
    path: '',
    value: {},
  }));
  assert.throws(
    () => applyJsonPatch({}, ops),
    (err: unknown) => err instanceof PatchError && err.code === 'SEQUENCE_TOO_LONG'
  );
  assert.deepEqual(applyJsonPatch({}, ops.slice(1)), {});
});

test('regression (fuzz): copies doubling the object past the copy size limit are refused', () => {
  const target = { metadata: { labels: { a: 'x'.repeat(1000) } } };
  const ops = Array.from({ length: 30 }, (_, i) => ({
    op: 'copy',
    from: '/metadata/labels',
    path: `/metadata/labels/c${i}`,
  }));
  assert.throws(
    () => applyJsonPatch(target, ops),
    (err: unknown) =>
      err instanceof PatchError &&
      err.code === 'COPY_SIZE_LIMIT' &&
      err.message.includes(`${maxJsonPatchCopyBytes} bytes`)
  );
  // A few copies of a small value are fine.
  type Out = { metadata: { labels: Record<string, unknown> } };
  const out = applyJsonPatch(target, ops.slice(0, 3)) as Out;
  assert.equal(Object.keys(out.metadata.labels).length, 4);
});
