// Storage's Revisions stream answers its requests in order (it carries no ids), though the
// revision reader may run several reads at once and a later request's read may end first. The
// store's reads are answered by the test, so that the order in which they end is chosen.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import type { ServerDuplexStream } from '@grpc/grpc-js';
import { Histogram } from 'prom-client';
import { storageService } from './storage-service.js';

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

test('Revisions answers in request order when a later read ends first', async () => {
  const reads: { answer(revision: number): void }[] = [];
  const store = {
    currentRevision: () => new Promise<number>((resolve) => reads.push({ answer: resolve })),
  };
  const latency = new Histogram({
    name: 'test_storage_latency_seconds',
    help: 'test',
    labelNames: ['operation', 'code'] as const,
    registers: [],
  });
  const handlers = storageService(store as never, undefined as never, latency);
  const written: unknown[] = [];
  const call = Object.assign(new EventEmitter(), {
    cancelled: false,
    write: (m: unknown) => written.push(m),
    end: () => written.push('end'),
  });
  handlers.Revisions(call as unknown as ServerDuplexStream<unknown, unknown>);

  call.emit('data', {});
  await turn();
  call.emit('data', {}); // a turn later: a read of its own, the first still in flight
  await turn();
  assert.equal(reads.length, 2);
  reads[1]!.answer(11);
  await turn();
  assert.deepEqual(written, [], 'the second answer waits for the first');
  reads[0]!.answer(10);
  await turn();
  assert.deepEqual(written, [{ revision: 10 }, { revision: 11 }]);
  call.emit('end');
  await turn();
  assert.deepEqual(written.at(-1), 'end');
});
