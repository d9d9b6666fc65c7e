// Core v1 Events and events.orch.io/v1 Events as one collection over HTTPS against a real suite:
// each written through one version is read, listed, selected and watched through the other,
// converted as upstream; events.orch.io/v1 writes get its strict rules (the spec's Events
// section and upstream's ValidateEventCreate / ValidateEventUpdate), core v1 the legacy ones.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'events-both';
const coreBase = `/api/v1/namespaces/${ns}/events`;
const v1Base = `/apis/events.orch.io/v1/namespaces/${ns}/events`;
type Json = Record<string, any>;

const coreEvent = (name: string, extra: Json = {}) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'Pod', namespace: ns, name: 'web', uid: 'u-web', apiVersion: 'v1' },
  reason: 'Pulled',
  message: 'Container image "nginx" already present on machine',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2024-05-01T10:20:30Z',
  lastTimestamp: '2024-05-01T10:25:30Z',
  count: 4,
  type: 'Normal',
  ...extra,
});

const v1Event = (name: string, extra: Json = {}) => ({
  apiVersion: 'events.orch.io/v1',
  kind: 'Event',
  metadata: { name },
  eventTime: '2024-05-01T10:20:30.123456Z',
  reportingController: 'orch.io/scheduler',
  reportingInstance: 'scheduler-cp-1',
  action: 'Binding',
  reason: 'Scheduled',
  regarding: { kind: 'Pod', namespace: ns, name: 'api', uid: 'u-api', apiVersion: 'v1' },
  note: 'Successfully assigned to node-2',
  type: 'Normal',
  ...extra,
});

const messageOf = (r: { body: unknown }): string => (r.body as { message: string }).message;

before(async () => {
  suite = await sharedSuite();
  const r = await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  assert.equal(r.status, 201);
});

after(async () => {
  await suite.stop();
});

test('a core v1 Event reads through events.orch.io/v1 converted (involvedObject→regarding, message→note, source→deprecatedSource, first/last/count→deprecated*)', async () => {
  const c = await suite.request(0, 'POST', coreBase, coreEvent('old-style'));
  assert.equal(c.status, 201, c.text);
  const r = await suite.request(0, 'GET', `${v1Base}/old-style`);
  assert.equal(r.status, 200, r.text);
  const e = r.body as Json;
  assert.equal(e['apiVersion'], 'events.orch.io/v1');
  assert.deepEqual(e['regarding'], coreEvent('x').involvedObject);
  assert.equal(e['note'], coreEvent('x').message);
  assert.deepEqual(e['deprecatedSource'], { component: 'kubelet', host: 'node-1' });
  assert.equal(e['deprecatedFirstTimestamp'], '2024-05-01T10:20:30Z');
  assert.equal(e['deprecatedLastTimestamp'], '2024-05-01T10:25:30Z');
  assert.equal(e['deprecatedCount'], 4);
  for (const f of ['involvedObject', 'message', 'source', 'count', 'firstTimestamp'])
    assert.equal(f in e, false, `${f} is not an events.orch.io/v1 field`);
  assert.equal(e['metadata']['resourceVersion'], (c.body as Json)['metadata']['resourceVersion']);
});

test('an events.orch.io/v1 Event reads through core v1 (regarding→involvedObject, note→message, reportingController→reportingComponent)', async () => {
  const c = await suite.request(0, 'POST', v1Base, v1Event('new-style'));
  assert.equal(c.status, 201, c.text);
  assert.equal((c.body as Json)['regarding']['name'], 'api', 'answered in events.orch.io/v1');
  const r = await suite.request(0, 'GET', `${coreBase}/new-style`);
  const e = r.body as Json;
  assert.equal(e['apiVersion'], 'v1');
  assert.equal(e['involvedObject']['name'], 'api');
  assert.equal(e['message'], 'Successfully assigned to node-2');
  assert.equal(e['reportingComponent'], 'orch.io/scheduler');
  assert.equal(e['reportingInstance'], 'scheduler-cp-1');
  assert.equal(e['eventTime'], '2024-05-01T10:20:30.123456Z');
  assert.equal(e['action'], 'Binding');
});

test('one collection: both lists hold both; field selectors in each version own names', async () => {
  const names = (b: unknown): string[] =>
    (b as { items: Json[] }).items.map((i) => i['metadata']['name']).sort();
  const core = await suite.request(0, 'GET', coreBase);
  const v1 = await suite.request(0, 'GET', v1Base);
  assert.deepEqual(names(core.body), ['new-style', 'old-style']);
  assert.deepEqual(names(v1.body), ['new-style', 'old-style']);
  assert.equal(
    (v1.body as Json)['items'][0]['apiVersion'] ?? 'events.orch.io/v1',
    'events.orch.io/v1'
  );
  const byRegarding = await suite.request(0, 'GET', `${v1Base}?fieldSelector=regarding.name%3Dapi`);
  assert.equal(byRegarding.status, 200, byRegarding.text);
  assert.deepEqual(names(byRegarding.body), ['new-style']);
  const byController = await suite.request(
    0,
    'GET',
    `${v1Base}?fieldSelector=reportingController%3Dorch.io%2Fscheduler`
  );
  assert.deepEqual(names(byController.body), ['new-style']);
  const byInvolved = await suite.request(
    0,
    'GET',
    `${coreBase}?fieldSelector=involvedObject.name%3Dweb`
  );
  assert.deepEqual(names(byInvolved.body), ['old-style']);
});

test('a watch on events.orch.io/v1 sees an Event written through core v1, converted and selected by regarding.name', async () => {
  const list = await suite.request(0, 'GET', v1Base);
  const rv = (list.body as Json)['metadata']['resourceVersion'];
  const watched = { kind: 'Pod', namespace: ns, name: 'watched', uid: 'u-w', apiVersion: 'v1' };
  const created = await suite.request(
    0,
    'POST',
    coreBase,
    coreEvent('seen', { involvedObject: watched })
  );
  assert.equal(created.status, 201, created.text);
  assert.equal((await suite.request(0, 'POST', coreBase, coreEvent('unseen'))).status, 201);
  // From the list's revision: the changes since are replayed, then the server ends the watch.
  const w = await suite.request(
    0,
    'GET',
    `${v1Base}?watch=1&resourceVersion=${rv}&timeoutSeconds=2&fieldSelector=regarding.name%3Dwatched`
  );
  assert.equal(w.status, 200, w.text);
  const events = w.text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Json)
    .filter((e) => e['type'] !== 'BOOKMARK');
  assert.deepEqual(
    events.map((e) => [e['type'], e['object']['metadata']['name']]),
    [['ADDED', 'seen']]
  );
  const obj = events[0]?.['object'] as Json;
  assert.equal(obj['apiVersion'], 'events.orch.io/v1');
  assert.deepEqual(obj['regarding'], watched);
  assert.equal(obj['deprecatedCount'], 4);
});

const v1Rows: { row: string; event: Json; want: RegExp }[] = [
  {
    row: 'spec Events: reportingController is required on create',
    event: v1Event('r1', { reportingController: undefined }),
    want: /reportingController: Required value/,
  },
  {
    row: 'spec Events: reportingInstance is required on create',
    event: v1Event('r2', { reportingInstance: undefined }),
    want: /reportingInstance: Required value/,
  },
  {
    row: 'spec Events: action is required on create',
    event: v1Event('r3', { action: undefined }),
    want: /action: Required value/,
  },
  {
    row: 'spec Events: reason is required on create',
    event: v1Event('r4', { reason: undefined }),
    want: /reason: Required value/,
  },
  {
    row: 'spec Events: eventTime replaces firstTimestamp and is required',
    event: v1Event('r5', { eventTime: undefined }),
    want: /eventTime: Required value/,
  },
  {
    row: 'spec Events: type is Normal or Warning',
    event: v1Event('r6', { type: 'Info' }),
    want: /type: Invalid value: "": has invalid value: Info/,
  },
  {
    row: 'spec Events: deprecatedCount is not allowed on new v1 events',
    event: v1Event('r7', { deprecatedCount: 2 }),
    want: /deprecatedCount: Invalid value: "": needs to be unset/,
  },
  {
    row: 'spec Events: deprecatedSource is not allowed on new v1 events',
    event: v1Event('r8', { deprecatedSource: { component: 'kubelet' } }),
    want: /deprecatedSource: Invalid value: "": needs to be unset/,
  },
  {
    row: 'spec Events: deprecatedFirstTimestamp is not allowed on new v1 events',
    event: v1Event('r9', { deprecatedFirstTimestamp: '2024-05-01T10:20:30Z' }),
    want: /deprecatedFirstTimestamp: Invalid value: "": needs to be unset/,
  },
  {
    row: 'upstream: note at most 1 KiB (upstream names it message; here the field sent, note)',
    event: v1Event('r10', { note: 'x'.repeat(1025) }),
    want: /note: Invalid value: "": can have at most 1024 characters/,
  },
  {
    row: 'upstream: series.count at least 2',
    event: v1Event('r11', {
      series: { count: 1, lastObservedTime: '2024-05-01T10:21:30.000000Z' },
    }),
    want: /series\.count: Invalid value: "": should be at least 2/,
  },
  {
    row: 'upstream: reportingController is a qualified name',
    event: v1Event('r12', { reportingController: 'not a name!' }),
    want: /reportingController: Invalid value: "not a name!"/,
  },
  {
    row: 'upstream: action at most 128 characters',
    event: v1Event('r13', { action: 'a'.repeat(129) }),
    want: /action: Invalid value: "": can have at most 128 characters/,
  },
];

for (const r of v1Rows) {
  test(`events.orch.io/v1 create: ${r.row}`, async () => {
    const res = await suite.request(0, 'POST', v1Base, JSON.parse(JSON.stringify(r.event)));
    assert.ok(res.status === 422 || res.status === 400, res.text);
    assert.match(messageOf(res), r.want);
    const name = (r.event['metadata'] as Json)['name'];
    assert.equal(
      (await suite.request(0, 'GET', `${coreBase}/${name}`)).status,
      404,
      'nothing stored'
    );
  });
}

test('a note of exactly 1 KiB is accepted', async () => {
  const res = await suite.request(0, 'POST', v1Base, v1Event('kib', { note: 'x'.repeat(1024) }));
  assert.equal(res.status, 201, res.text);
});

test('core v1 keeps the legacy rules: an old-style Event without reportingComponent is fine; a namespace mismatch is not', async () => {
  const ok = await suite.request(0, 'POST', coreBase, coreEvent('legacy-ok'));
  assert.equal(ok.status, 201, ok.text);
  const bad = await suite.request(
    0,
    'POST',
    coreBase,
    coreEvent('legacy-bad', { involvedObject: { kind: 'Pod', namespace: 'elsewhere', name: 'x' } })
  );
  assert.equal(bad.status, 422, bad.text);
  assert.match(
    messageOf(bad),
    /involvedObject\.namespace: Invalid value: "elsewhere": does not match event\.namespace/
  );
  const newStyle = await suite.request(
    0,
    'POST',
    coreBase,
    coreEvent('core-new', { eventTime: '2024-05-01T10:20:30.000000Z' })
  );
  assert.equal(newStyle.status, 422, newStyle.text);
  assert.match(messageOf(newStyle), /reportingComponent: Required value/);
});

test('events.orch.io/v1 update: series may change, the note may not (field is immutable, named as sent)', async () => {
  const created = await suite.request(0, 'POST', v1Base, v1Event('updated'));
  assert.equal(created.status, 201, created.text);
  const series = { count: 2, lastObservedTime: '2024-05-01T10:30:00.000000Z' };
  const withSeries = { ...(created.body as Json), series };
  const put = await suite.request(0, 'PUT', `${v1Base}/updated`, withSeries);
  assert.equal(put.status, 200, put.text);
  assert.deepEqual((put.body as Json)['series'], series);
  const core = await suite.request(0, 'GET', `${coreBase}/updated`);
  assert.deepEqual((core.body as Json)['series'], series, 'stored once, seen through core');
  const changed = { ...(put.body as Json), note: 'rewritten' };
  const refused = await suite.request(0, 'PUT', `${v1Base}/updated`, changed);
  assert.equal(refused.status, 422, refused.text);
  assert.match(messageOf(refused), /note: Invalid value: "rewritten": field is immutable/);
});

test('a delete through events.orch.io/v1 removes the core v1 Event', async () => {
  const del = await suite.request(0, 'DELETE', `${v1Base}/old-style`);
  assert.equal(del.status, 200, del.text);
  assert.equal((await suite.request(0, 'GET', `${coreBase}/old-style`)).status, 404);
});
