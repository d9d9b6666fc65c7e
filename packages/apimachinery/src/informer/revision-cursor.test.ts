// The revision cursor: each change once, several keys of one revision, progress completing it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RevisionCursor } from './revision-cursor.js';

test('revision cursor: nothing at or before a complete revision, each key of a newer one once', () => {
  const c = new RevisionCursor(10);
  assert.equal(c.accept(10, 'a'), false, 'the start revision is complete');
  assert.equal(c.accept(9, 'a'), false);
  assert.equal(c.accept(11, 'a'), true);
  assert.equal(c.from, 10, 'revision 11 may be partly delivered');
  assert.equal(c.accept(11, 'b'), true, 'another key of the same transaction');
  assert.equal(c.accept(11, 'c'), true);
  assert.equal(c.accept(11, 'a'), false);
  assert.equal(c.accept(11, 'c'), false);
  assert.equal(c.accept(12, 'a'), true);
  assert.equal(c.accept(11, 'd'), false, 'an older revision is over');
  c.complete(12);
  assert.equal(c.from, 12);
  assert.equal(c.accept(12, 'z'), false, 'progress completed revision 12');
  c.complete(11);
  assert.equal(c.revision, 12, 'progress only forward');
});
