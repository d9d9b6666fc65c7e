import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SelectorParseError } from './selector-parse-error.js';

test('SelectorParseError has a stable name and a symbol-based instanceof', () => {
  const err = new SelectorParseError('a b', 'bad');
  assert.equal(err.name, 'SelectorParseError');
  assert.equal(err.selector, 'a b');
  assert.ok(err instanceof Error);
  assert.ok(err instanceof SelectorParseError);
  assert.equal(new Error('x') instanceof SelectorParseError, false);
  assert.equal(({ name: 'SelectorParseError' } as unknown) instanceof SelectorParseError, false);
  // A copy from another instance of the package carries the same registered symbol.
  const foreign = Object.assign(new Error('bad'), {
    [Symbol.for('@orch/apimachinery/SelectorParseError')]: true,
  });
  assert.ok(foreign instanceof SelectorParseError);
});
