// The APF filter without a server: a request waits in its queue while its level's seats are
// taken, the one over the queue length limit is 429 with Retry-After, and every classified answer
// names the matched FlowSchema's and priority level's UIDs; a Reject level answers 429 at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FlowSchema, PriorityLevelConfiguration } from '@orch/api/flowcontrol/v1';
import { ApfController } from '../flowcontrol/apf-controller.js';
import { serveRequest } from '../handlers/verb-test-kit.js';
import type { Handler } from '../http/handler.js';
import { withPriorityAndFairness } from './with-priority-and-fairness.js';

const tight: PriorityLevelConfiguration = {
  metadata: { name: 'tight', uid: 'pl-uid' },
  spec: {
    type: 'Limited',
    limited: {
      nominalConcurrencyShares: 5,
      limitResponse: { type: 'Queue', queuing: { queues: 1, handSize: 1, queueLengthLimit: 1 } },
    },
  },
};
const testers: FlowSchema = {
  metadata: { name: 'testers', uid: 'fs-uid' },
  spec: {
    priorityLevelConfiguration: { name: 'tight' },
    matchingPrecedence: 500,
    distinguisherMethod: { type: 'ByUser' },
    rules: [
      {
        subjects: [{ kind: 'User', user: { name: 'tester' } }],
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }],
      },
    ],
  },
};

/** The filter around `inner`, over a controller of these schemas, levels and server seats. */
function apfFilter(
  inner: Handler,
  schemas: FlowSchema[],
  levels: PriorityLevelConfiguration[],
  serverSeats: number
): Handler {
  const controller = new ApfController({ serverConcurrencyLimit: serverSeats });
  controller.setConfig(schemas, levels);
  return withPriorityAndFairness(inner, {
    controller,
    queueWaitMs: 5000,
    sources: { objectCount: () => 0, watcherCount: () => 0 },
  });
}

/** A handler each request of which is held until released, and the filter around it. */
function held(schemas: FlowSchema[], levels: PriorityLevelConfiguration[], serverSeats: number) {
  const releases: (() => void)[] = [];
  const inner: Handler = async (_req, res) => {
    await new Promise<void>((resolve) => releases.push(resolve));
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{}');
  };
  return { filter: apfFilter(inner, schemas, levels, serverSeats), releases };
}

const path = '/api/v1/namespaces/ns/configmaps/a';
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

test('queued while the seat is taken, 429 with Retry-After past the queue length, UIDs answered', async () => {
  // 2 server seats over shares 5 (tight) + 5 (catch-all) + 0 (exempt): one seat each.
  const { filter, releases } = held([testers], [tight], 2);
  const first = serveRequest(filter, { method: 'GET', path });
  const second = serveRequest(filter, { method: 'GET', path });
  await tick();
  assert.equal(releases.length, 1, 'the second waits in its queue');
  const over = await serveRequest(filter, { method: 'GET', path });
  assert.equal(over.code, 429);
  assert.equal(over.headers['retry-after'], '1');
  assert.equal(over.json<{ reason: string }>().reason, 'TooManyRequests');
  assert.equal(over.headers['x-kubernetes-pf-flowschema-uid'], 'fs-uid');
  assert.equal(over.headers['x-kubernetes-pf-prioritylevel-uid'], 'pl-uid');
  releases[0]!();
  assert.equal((await first).code, 200);
  await tick();
  assert.equal(releases.length, 2, 'the seat freed dispatches the waiter');
  releases[1]!();
  const answered = await second;
  assert.equal(answered.code, 200);
  assert.equal(answered.headers['x-kubernetes-pf-flowschema-uid'], 'fs-uid');
});

test('the mandatory catch-all level rejects at once when its seat is taken (Reject)', async () => {
  // Only the mandatory levels: catch-all has all of the one seat.
  const { filter, releases } = held([], [], 1);
  const first = serveRequest(filter, { method: 'GET', path });
  await tick();
  const over = await serveRequest(filter, { method: 'GET', path });
  assert.equal(over.code, 429);
  assert.equal(over.headers['retry-after'], '1');
  releases[0]!();
  assert.equal((await first).code, 200);
});

test('a watch holds its seats while it initialises and frees them once it streams, before any event', async () => {
  // One seat for `tight`. The watch's handler sends its headers, waits to be released (its
  // initialisation), and returns with the stream open and no event written: a watch from a
  // resourceVersion on a quiet collection (upstream frees the seat on WatchInitialized).
  const initialised: (() => void)[] = [];
  let gets = 0;
  const inner: Handler = async (req, res) => {
    if (req.url?.includes('watch=1')) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.flushHeaders();
      await new Promise<void>((resolve) => initialised.push(resolve));
      return;
    }
    gets++;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{}');
  };
  const filter = apfFilter(inner, [testers], [tight], 2);
  void serveRequest(filter, { method: 'GET', path: '/api/v1/namespaces/ns/configmaps?watch=1' });
  await tick();
  const get = serveRequest(filter, { method: 'GET', path });
  await tick();
  assert.equal(gets, 0, 'the GET waits while the watch initialises');
  initialised[0]!();
  assert.equal((await get).code, 200, 'the initialised watch, silent, no longer holds the seat');
  assert.equal(gets, 1);
});
