// The revision reader shares reads among callers without ever answering a caller with a read
// that started before it called (which could miss a write it had seen acknowledged): a caller
// arriving while a read is in flight joins the next one, at most two reads are pending, and a
// failed read fails the callers of that read only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RevisionReader } from './revision-reader.js';

/** A storage whose reads the test answers one by one, each with the revision when it started. */
function manualStorage() {
  let revision = 10;
  const pending: { startedAt: number; answer: (fail?: Error) => void }[] = [];
  const read = () =>
    new Promise<number>((resolve, reject) => {
      const startedAt = revision;
      pending.push({ startedAt, answer: (fail) => (fail ? reject(fail) : resolve(startedAt)) });
    });
  return {
    read,
    pending,
    write: () => ++revision,
    /** Lets the promise callbacks of an answer run. */
    settle: () => new Promise((r) => setImmediate(r)),
  };
}

test('callers during a read share the next one, which starts after it: a linearizable revision', async () => {
  const s = manualStorage();
  const reader = new RevisionReader(s.read);
  const a = reader.current();
  assert.equal(s.pending.length, 1, 'the first caller starts a read');
  s.write(); // acknowledged to b and c before they call
  const b = reader.current();
  const c = reader.current();
  assert.equal(s.pending.length, 1, 'b and c wait: the read in flight may predate the write');
  s.pending[0]!.answer();
  assert.equal(await a, 10);
  await s.settle();
  assert.equal(s.pending.length, 2, 'one more read for both of them, once the first ended');
  s.pending[1]!.answer();
  assert.deepEqual([await b, await c], [11, 11], 'both see the write');
  assert.equal(reader.reads, 2);
});

test('a caller after the reads ended starts a new one; a failed read fails only its callers', async () => {
  const s = manualStorage();
  const reader = new RevisionReader(s.read);
  const a = reader.current();
  s.pending[0]!.answer(new Error('storage unavailable'));
  await assert.rejects(a, /storage unavailable/);
  const b = reader.current();
  assert.equal(s.pending.length, 2, 'a new read, not the failed one');
  s.pending[1]!.answer();
  assert.equal(await b, 10);
});
