// Fair across the fleet, the arithmetic: a flow spread over two gateways is held to one gateway's
// level in total, split by where its demand is; a flow seen at one gateway has no cap; the active
// flows of the fleet share its seats; watchers add up; silent peers are forgotten; a queue set
// holds a capped flow's requests back while other flows run, and lets them go when the cap rises.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundFlows, fleetWatchers, flowCaps, freshPeers, maxFlowsPerLevel } from './fleet.js';
import type { FleetSummary } from './fleet.js';
import { QueueSet } from './queue-set.js';
import { hashFlowID } from './rule.js';

test('a flow flooding two gateways gets one gateway of its level across both', () => {
  const a = { wl: { cl: 10, flows: { 'fs/flood': 60 } } };
  const b = { wl: { cl: 10, flows: { 'fs/flood': 60 } } };
  const capsA = flowCaps(a, [b]);
  const capsB = flowCaps(b, [a]);
  assert.equal(capsA.get('wl')!.get('fs/flood'), 5);
  assert.equal(capsB.get('wl')!.get('fs/flood'), 5);
});

test("the cap follows where the flow's demand is; the parts add up to the allowance", () => {
  const a = { wl: { cl: 10, flows: { 'fs/flood': 30 } } };
  const b = { wl: { cl: 10, flows: { 'fs/flood': 10 } } };
  // 10 × 30/40 = 7.5 and 10 × 10/40 = 2.5: the seat left over goes to the lower id, a.
  const atA = flowCaps(a, [b], { local: 'a', peers: ['b'] })
    .get('wl')!
    .get('fs/flood');
  const atB = flowCaps(b, [a], { local: 'b', peers: ['a'] })
    .get('wl')!
    .get('fs/flood');
  assert.deepEqual([atA, atB], [8, 2]);
});

test('a level of 3 seats flooded equally at two gateways: 2 + 1, not 2 + 2', () => {
  const a = { fl: { cl: 3, flows: { 'fs/flood': 40 } } };
  const b = { fl: { cl: 3, flows: { 'fs/flood': 40 } } };
  const atA = flowCaps(a, [b], { local: 'g1', peers: ['g2'] })
    .get('fl')!
    .get('fs/flood')!;
  const atB = flowCaps(b, [a], { local: 'g2', peers: ['g1'] })
    .get('fl')!
    .get('fs/flood')!;
  assert.equal(atA + atB, 3);
  // Three gateways, 3 seats: one each.
  const c = { fl: { cl: 3, flows: { 'fs/flood': 40 } } };
  const three = ['g1', 'g2', 'g3'].map((id, i, all) =>
    flowCaps(
      [a, b, c][i]!,
      [a, b, c].filter((_, j) => j !== i),
      {
        local: id,
        peers: all.filter((_, j) => j !== i),
      }
    )
      .get('fl')!
      .get('fs/flood')!
  );
  assert.deepEqual(three, [1, 1, 1]);
});

test('a flow seen at one gateway only has no cap (local fair queuing alone)', () => {
  const a = { wl: { cl: 10, flows: { 'fs/alice': 30 } } };
  const b = { wl: { cl: 10, flows: { 'fs/bob': 30 } } };
  assert.equal(flowCaps(a, [b]).size, 0);
  assert.equal(flowCaps(a, []).size, 0);
});

test("the level's active flows in the fleet share the fleet's seats", () => {
  // Three flows in a fleet of 2 × 6 seats: 4 each across the fleet; the spread one gets 2 here.
  const a = { wl: { cl: 6, flows: { 'fs/x': 20, 'fs/y': 20 } } };
  const b = { wl: { cl: 6, flows: { 'fs/x': 20, 'fs/z': 20 } } };
  const caps = flowCaps(a, [b]).get('wl')!;
  assert.equal(caps.get('fs/x'), 2);
  assert.equal(caps.has('fs/y'), false);
  // Never below one seat.
  const tiny = flowCaps({ wl: { cl: 2, flows: { 'fs/x': 1 } } }, [
    { wl: { cl: 2, flows: { 'fs/x': 1000 } } },
  ]);
  assert.equal(tiny.get('wl')!.get('fs/x'), 1);
});

test('levels are capped apart; a level the peer does not have is left alone', () => {
  const a = { wl: { cl: 10, flows: { 'fs/f': 30 } }, other: { cl: 4, flows: { 'fs/f': 30 } } };
  const b = { wl: { cl: 10, flows: { 'fs/f': 30 } } };
  const caps = flowCaps(a, [b]);
  assert.deepEqual([...caps.keys()], ['wl']);
});

test('watchers add up over the fresh peers', () => {
  const peer = (w: Record<string, number>): FleetSummary => ({
    gateway: 'p',
    periodMs: 200,
    levels: {},
    watchers: w,
  });
  assert.equal(fleetWatchers(3, '/registry/pods', [peer({ '/registry/pods': 7 }), peer({})]), 10);
  assert.equal(fleetWatchers(3, '/registry/pods', []), 3);
});

test('a peer silent for K periods is forgotten', () => {
  const summary: FleetSummary = { gateway: 'p', periodMs: 200, levels: {}, watchers: {} };
  const peers = new Map([['p', { summary, atMs: 0 }]]);
  assert.equal(freshPeers(peers, 1000).length, 1);
  assert.equal(freshPeers(peers, 1001).length, 0);
  assert.equal(peers.size, 0);
});

test('a summary names at most maxFlowsPerLevel flows, those with the most demand', () => {
  const flows = new Map(Array.from({ length: 300 }, (_, i) => [`fs/u${i}`, i] as const));
  const out = boundFlows(flows);
  assert.equal(Object.keys(out).length, maxFlowsPerLevel);
  assert.equal(out['fs/u299'], 299);
  assert.equal(out['fs/u0'], undefined);
});

test("a queue set holds a capped flow's requests back, runs the others, and releases on a new cap", () => {
  const one = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };
  let now = 0;
  const qs = new QueueSet(
    'l',
    { queues: 16, handSize: 2, queueLengthLimit: 50 },
    10,
    undefined,
    () => now
  );
  let cap = 2;
  qs.flowCap = (flow) => (flow === 'fs/flood' ? cap : undefined);
  const flood = Array.from({ length: 6 }, () =>
    qs.start(one, hashFlowID('fs', 'flood'), 'fs', 'flood')!
  );
  assert.deepEqual(
    flood.map((r) => r.state),
    ['executing', 'executing', 'waiting', 'waiting', 'waiting', 'waiting']
  );
  const other = qs.start(one, hashFlowID('fs', 'other'), 'fs', 'other')!;
  assert.equal(other.state, 'executing');
  assert.equal(qs.flowDemand().get('fs/flood'), 6);
  now += 1;
  flood[0]!.finish();
  assert.equal(flood.filter((r) => r.state === 'executing').length, 2);
  cap = 4;
  qs.recheck();
  assert.equal(flood.filter((r) => r.state === 'executing').length, 4);
  qs.flowCap = undefined;
  qs.recheck();
  assert.equal(flood.filter((r) => r.state === 'executing').length, 5);
  assert.equal(qs.flowDemand().get('fs/flood'), 5);
});
