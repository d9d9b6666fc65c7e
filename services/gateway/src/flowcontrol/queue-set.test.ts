// Fair queuing on a manual clock: a flow flooding its queue does not delay another flow's
// requests behind its own; a full queue rejects; a request over the limit without queues is
// rejected; a cancelled waiter leaves its queue.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QueueSet } from './queue-set.js';
import { hashFlowID } from './rule.js';

const one = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };

/** 64 queues, hand size 1 (each flow has one queue), on the clock `now` gives. */
const handOfOne = (limit: number, now: () => number): QueueSet =>
  new QueueSet('l', { queues: 64, handSize: 1, queueLengthLimit: 100 }, limit, undefined, now);

test("a light flow is dispatched between a heavy flow's queued requests, not after them", () => {
  // Hand size 1: each flow has one queue (with 6 the heavy flow spreads over six and gets six
  // turns to the light one's one, as upstream).
  let now = 0;
  const qs = handOfOne(1, () => now);
  const heavy = hashFlowID('fs', 'heavy');
  const light = hashFlowID('fs', 'light');
  const first = qs.start(one, heavy, 'fs', 'heavy')!;
  assert.equal(first.state, 'executing');
  const heavies = Array.from({ length: 20 }, () => qs.start(one, heavy, 'fs', 'heavy')!);
  const l = qs.start(one, light, 'fs', 'light')!;
  assert.equal(l.state, 'waiting');
  const order: string[] = [];
  let running = first;
  for (let i = 0; i < 3; i++) {
    now += 10;
    running.finish();
    running = [...heavies, l].find((r) => r.state === 'executing')!;
    order.push(running === l ? 'light' : 'heavy');
  }
  assert.ok(order.slice(0, 2).includes('light'), `light within the first two dispatches: ${order}`);
});

test('a full queue rejects (queue-full) once the level is busy', () => {
  const rejected: string[] = [];
  const observer = {
    queued: () => undefined,
    executing: () => undefined,
    dispatched: () => undefined,
    rejected: (_fs: string, reason: string) => rejected.push(reason),
  };
  const qs = new QueueSet('l', { queues: 1, handSize: 1, queueLengthLimit: 2 }, 1, observer);
  const h = hashFlowID('fs', 'x');
  assert.equal(qs.start(one, h, 'fs', 'x')?.state, 'executing');
  assert.equal(qs.start(one, h, 'fs', 'x')?.state, 'waiting');
  assert.equal(qs.start(one, h, 'fs', 'x')?.state, 'waiting');
  assert.equal(qs.start(one, h, 'fs', 'x'), undefined);
  assert.deepEqual(rejected, ['queue-full']);
});

test('without queues a request over the limit is rejected (concurrency-limit); seats count by width', () => {
  const qs = new QueueSet('l', { queues: 0, handSize: 0, queueLengthLimit: 0 }, 4, undefined);
  const wide = { initialSeats: 3, finalSeats: 0, additionalLatencyMs: 0 };
  const a = qs.start(wide, 0n, 'fs', '')!;
  assert.equal(a.state, 'executing');
  assert.equal(qs.start(wide, 0n, 'fs', ''), undefined, '3 + 3 seats > 4');
  assert.equal(qs.start(one, 0n, 'fs', '')?.state, 'executing', '3 + 1 fits');
  a.finish();
  assert.equal(qs.totSeatsInUse, 1);
});

test('a cancelled waiter leaves its queue and learns it will not execute', async () => {
  const qs = new QueueSet('l', { queues: 4, handSize: 2, queueLengthLimit: 10 }, 1, undefined);
  const h = hashFlowID('fs', 'x');
  const running = qs.start(one, h, 'fs', 'x')!;
  const waiting = qs.start(one, h, 'fs', 'x')!;
  waiting.cancel('time-out');
  assert.equal(await waiting.decision, false);
  assert.equal(qs.totRequestsWaiting, 0);
  running.finish();
  assert.ok(qs.isIdle());
});

test('final seats stay taken for the additional latency after the request ends', async () => {
  const qs = new QueueSet('l', { queues: 0, handSize: 0, queueLengthLimit: 0 }, 10, undefined);
  const w = qs.start({ initialSeats: 1, finalSeats: 5, additionalLatencyMs: 20 }, 0n, 'fs', '')!;
  assert.equal(qs.totSeatsInUse, 5);
  w.finish();
  assert.equal(qs.totRequestsExecuting, 0);
  assert.equal(qs.totSeatsInUse, 5);
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(qs.totSeatsInUse, 0);
});

test('requests dispatched at once (nothing waiting) still charge their queue: the flow that took the free seats waits behind another flow', () => {
  const qs = handOfOne(2, () => 0);
  const a = hashFlowID('fs', 'heavy');
  const b = hashFlowID('fs', 'light');
  const a1 = qs.start(one, a, 'fs', 'heavy')!;
  const a2 = qs.start(one, a, 'fs', 'heavy')!;
  assert.deepEqual([a1.state, a2.state], ['executing', 'executing']);
  const a3 = qs.start(one, a, 'fs', 'heavy')!;
  const b1 = qs.start(one, b, 'fs', 'light')!;
  assert.deepEqual([a3.state, b1.state], ['waiting', 'waiting']);
  a1.finish();
  assert.deepEqual([a3.state, b1.state], ['waiting', 'executing']);
  a2.finish();
  assert.equal(a3.state, 'executing');
});
