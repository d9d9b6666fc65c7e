// The conversion between core v1 and events.orch.io/v1 Events (upstream
// pkg/apis/events/v1/conversion.go), field by field, and the field-selector names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../meta/index.js';
import { coreToEventsV1, eventsV1FieldSelectorToCore, eventsV1ToCore } from './conversion.js';

const core = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web.17a', namespace: 'default' },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1', apiVersion: 'v1' },
  reason: 'Scheduled',
  message: 'Successfully assigned default/web to node-1',
  source: { component: 'default-scheduler', host: 'cp-1' },
  firstTimestamp: '2024-05-01T10:20:30Z',
  lastTimestamp: '2024-05-01T10:21:30Z',
  count: 3,
  type: 'Normal',
  eventTime: '2024-05-01T10:20:30.123456Z',
  series: { count: 3, lastObservedTime: '2024-05-01T10:21:30.000000Z' },
  action: 'Binding',
  related: { kind: 'Node', name: 'node-1', apiVersion: 'v1' },
  reportingComponent: 'default-scheduler',
  reportingInstance: 'default-scheduler-cp-1',
};

const rows: { core: string; v1: string }[] = [
  { core: 'involvedObject', v1: 'regarding' },
  { core: 'message', v1: 'note' },
  { core: 'reportingComponent', v1: 'reportingController' },
  { core: 'source', v1: 'deprecatedSource' },
  { core: 'firstTimestamp', v1: 'deprecatedFirstTimestamp' },
  { core: 'lastTimestamp', v1: 'deprecatedLastTimestamp' },
  { core: 'count', v1: 'deprecatedCount' },
  { core: 'eventTime', v1: 'eventTime' },
  { core: 'series', v1: 'series' },
  { core: 'reportingInstance', v1: 'reportingInstance' },
  { core: 'action', v1: 'action' },
  { core: 'reason', v1: 'reason' },
  { core: 'related', v1: 'related' },
  { core: 'type', v1: 'type' },
];

const v1 = coreToEventsV1(core);
for (const row of rows) {
  test(`core ${row.core} is events.orch.io/v1 ${row.v1}`, () => {
    assert.deepEqual(
      (v1 as Record<string, unknown>)[row.v1],
      (core as Record<string, unknown>)[row.core]
    );
  });
}

test('events.orch.io/v1 has no core-only names; apiVersion follows', () => {
  assert.equal(v1.apiVersion, 'events.orch.io/v1');
  for (const f of [
    'involvedObject',
    'message',
    'source',
    'firstTimestamp',
    'count',
    'reportingComponent',
  ])
    assert.equal(f in v1, false, f);
});

test('the round trip core → events.orch.io/v1 → core is the identity', () => {
  assert.deepEqual(eventsV1ToCore(v1), core);
});

test('the conversion copies: the input is never changed', () => {
  const input = structuredClone(core);
  const out = coreToEventsV1(input) as Record<string, unknown>;
  (out['regarding'] as Record<string, unknown>)['name'] = 'changed';
  assert.deepEqual(input, core);
});

test('unset fields stay unset', () => {
  const minimal = {
    apiVersion: 'events.orch.io/v1',
    kind: 'Event',
    metadata: { name: 'e' },
  } as ApiObject;
  assert.deepEqual(eventsV1ToCore(minimal), {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'e' },
  });
});

const selectorRows: { v1: string; core: string }[] = [
  { v1: 'regarding.name=web', core: 'involvedObject.name=web' },
  { v1: 'regarding.kind==Pod,reason=Scheduled', core: 'involvedObject.kind==Pod,reason=Scheduled' },
  { v1: 'reportingController!=kubelet', core: 'reportingComponent!=kubelet' },
  { v1: 'type=Warning,regarding.uid=u1', core: 'type=Warning,involvedObject.uid=u1' },
  { v1: 'metadata.name=a\\,b', core: 'metadata.name=a\\,b' },
];

for (const row of selectorRows) {
  test(`field selector ${row.v1} is ${row.core} in storage`, () => {
    assert.equal(eventsV1FieldSelectorToCore(row.v1), row.core);
  });
}
