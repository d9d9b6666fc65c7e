import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PatchError } from './patch-error.js';

test('PatchError has a stable name, code, index, cause and a symbol-based instanceof', () => {
  const cause = new Error('inner');
  const err = new PatchError('bad', { code: 'X', operationIndex: 2, cause });
  assert.equal(err.name, 'PatchError');
  assert.equal(err.message, 'bad');
  assert.equal(err.code, 'X');
  assert.equal(err.operationIndex, 2);
  assert.equal(err.cause, cause);
  assert.ok(err instanceof Error);
  assert.ok(err instanceof PatchError);
  assert.equal(new Error('x') instanceof PatchError, false);
  const plain = new PatchError('bad');
  assert.equal(plain.code, undefined);
  assert.equal(plain.operationIndex, undefined);
  assert.equal('cause' in plain, false);
});
