// The debug dumps and the apiserver_flowcontrol_* metrics follow requests through a level: one
// executing, one waiting, one rejected.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { requestInfoOf } from '../request/request-info.js';
import { ApfController } from './apf-controller.js';
import { ApfMetrics } from './apf-metrics.js';
import { suggestedFlowSchemas, suggestedPriorityLevels } from './bootstrap.js';
import { dumpPriorityLevels, dumpQueues, dumpRequests } from './dump.js';

test('dumps and metrics of a level with a request executing, one waiting and one rejected', async () => {
  const registry = new Registry();
  // 12 seats: global-default's nominal is ceil(12 × 20 / 245) = 1.
  const c = new ApfController({ serverConcurrencyLimit: 12, observer: new ApfMetrics(registry) });
  const levels = suggestedPriorityLevels.map((pl) =>
    pl.metadata?.name === 'global-default'
      ? {
          ...pl,
          spec: {
            type: 'Limited',
            limited: {
              nominalConcurrencyShares: 20,
              limitResponse: {
                type: 'Queue',
                queuing: { queues: 1, handSize: 1, queueLengthLimit: 1 },
              },
            },
          },
        }
      : pl
  );
  c.setConfig(suggestedFlowSchemas, levels);
  const d = {
    info: requestInfoOf('GET', new URL('https://x/api/v1/namespaces/a/pods')),
    user: { name: 'alice', uid: '', groups: ['system:authenticated'], extra: {} },
  };
  const one = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };
  const a = c.admit(d, one);
  const b = c.admit(d, one);
  const r = c.admit(d, one);
  assert.deepEqual([a.kind, b.kind, r.kind], ['execute', 'wait', 'reject']);

  const levelsDump = dumpPriorityLevels(c).split('\n');
  assert.match(levelsDump[0]!, /^PriorityLevelName, ActiveQueues, IsIdle/);
  assert.ok(
    levelsDump.includes('global-default, 1, false, false, 1, 1, 1, 1, 0, 0'),
    levelsDump.join('\n')
  );
  assert.match(dumpQueues(c), /\nglobal-default, 0, 1, 1, 1, /);
  assert.match(
    dumpRequests(c),
    /\nglobal-default, global-default, 0, 0, alice, \d{4}-.*, 1, 0, 0ms\n/
  );

  const text = await registry.metrics();
  const pf = 'priority_level="global-default",flow_schema="global-default"';
  for (const line of [
    `apiserver_flowcontrol_dispatched_requests_total{${pf}} 1`,
    `apiserver_flowcontrol_current_executing_requests{${pf}} 1`,
    `apiserver_flowcontrol_current_executing_seats{${pf}} 1`,
    `apiserver_flowcontrol_current_inqueue_requests{${pf}} 1`,
    `apiserver_flowcontrol_rejected_requests_total{${pf},reason="queue-full"} 1`,
    'apiserver_flowcontrol_nominal_limit_seats{priority_level="global-default"} 1',
  ])
    assert.ok(text.split('\n').includes(line), line);

  c.finish(a);
  assert.equal(b.kind === 'wait' && (await b.request.decision), true);
  assert.match(
    await registry.metrics(),
    /apiserver_flowcontrol_dispatched_requests_total\{priority_level="global-default",flow_schema="global-default"\} 2/
  );
});
