// The revision reader shares reads among callers without ever answering a caller with a read
// that started before it called (which could miss a write it had seen acknowledged): the
// callers of one event-loop turn share a read started after them, a caller never waits for a
// read in flight to end first (unless maxInFlight are), and a failed read fails only its callers.
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
    /** Lets the reader start what it scheduled, and the promise callbacks of an answer run. */
    settle: () => new Promise((r) => setImmediate(r)),
  };
}

test('the callers of one turn share one read, started after all of them called', async () => {
  const s = manualStorage();
  const reader = new RevisionReader(s.read);
  const a = reader.current();
  s.write(); // acknowledged to b before it calls, in the same turn
  const b = reader.current();
  assert.equal(s.pending.length, 0, 'no read starts before the turn ends');
  await s.settle();
  assert.equal(s.pending.length, 1, 'one read for both');
  s.pending[0]!.answer();
  assert.deepEqual([await a, await b], [11, 11], 'both see the write b saw acknowledged');
  assert.equal(reader.reads, 1);
});

test('a caller during a read in flight gets a read of its own, started after it called, without waiting for the first', async () => {
  const s = manualStorage();
  const reader = new RevisionReader(s.read);
  const a = reader.current();
  await s.settle();
  assert.equal(s.pending.length, 1);
  s.write(); // acknowledged to b and c before they call; a's read may predate it
  const b = reader.current();
  const c = reader.current();
  await s.settle();
  assert.equal(s.pending.length, 2, 'b and c share a second read, a still in flight');
  s.pending[1]!.answer();
  assert.deepEqual([await b, await c], [11, 11], 'both see the write, answered before a');
  s.pending[0]!.answer();
  assert.equal(await a, 10);
  assert.equal(reader.reads, 2);
});

test('at maxInFlight the next read starts when one ends, joined by every caller until then', async () => {
  const s = manualStorage();
  const reader = new RevisionReader(s.read, { maxInFlight: 2 });
  const first = [reader.current()];
  await s.settle();
  first.push(reader.current());
  await s.settle();
  assert.equal(s.pending.length, 2);
  const waiting = [reader.current()];
  await s.settle();
  s.write(); // acknowledged before the last caller calls, while the third read waits to start
  waiting.push(reader.current());
  await s.settle();
  assert.equal(s.pending.length, 2, 'no third read while two are in flight');
  s.pending[0]!.answer();
  await s.settle();
  assert.equal(s.pending.length, 3, 'the third read starts once one ended');
  s.pending[2]!.answer();
  assert.deepEqual(
    await Promise.all(waiting),
    [11, 11],
    'it serves both waiting callers, after the write'
  );
  s.pending[1]!.answer();
  assert.deepEqual(await Promise.all(first), [10, 10]);
  assert.equal(reader.reads, 3);
});

test('a failed read fails only its callers; the next caller starts a new one', async () => {
  const s = manualStorage();
  const reader = new RevisionReader(s.read);
  const a = reader.current();
  await s.settle();
  s.pending[0]!.answer(new Error('storage unavailable'));
  await assert.rejects(a, /storage unavailable/);
  const b = reader.current();
  await s.settle();
  assert.equal(s.pending.length, 2, 'a new read, not the failed one');
  s.pending[1]!.answer();
  assert.equal(await b, 10);
});
