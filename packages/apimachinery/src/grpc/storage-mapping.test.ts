// The storage messages mapped to proto, through the real wire encoding, and back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { storageProto } from '@orch/proto';
import type { Event__Output, GetListRequest__Output, GetListResponse__Output } from '@orch/proto';
import type { Consistency, HistoryEvent, ListOptions, ListResult } from '../storage/index.js';
import {
  consistencyFromProto,
  consistencyToProto,
  historyEventFromProto,
  historyEventToProto,
  historyProgressFromProto,
  historyProgressToProto,
  listOptionsFromProto,
  listOptionsToProto,
  listResultFromProto,
  listResultToProto,
  preconditionsFromProto,
  preconditionsToProto,
} from './storage-mapping.js';

const service = storageProto.orch.storage.v1.Storage.service;

test('every consistency maps to its proto name and back; unknown reads as MOST_RECENT', () => {
  for (const c of ['MOST_RECENT', 'ANY', 'NOT_OLDER_THAN', 'EXACT'] as Consistency[]) {
    assert.equal(consistencyToProto(c), `CONSISTENCY_${c}`);
    assert.equal(consistencyFromProto(consistencyToProto(c)), c);
  }
  assert.equal(consistencyFromProto('CONSISTENCY_SOMETHING_NEW'), 'MOST_RECENT');
});

test('list options survive the GetList request; unset fields read back as zero values', () => {
  const o: ListOptions = {
    prefix: '/registry/pods/ns1/',
    consistency: 'EXACT',
    revision: 42,
    limit: 500,
    continueToken: 'abc',
    labelSelector: 'app=web',
    fieldSelector: 'metadata.name!=x',
  };
  const m = service.GetList;
  const bytes = m.requestSerialize(listOptionsToProto(o));
  const r = m.requestDeserialize(bytes) as GetListRequest__Output;
  assert.deepEqual(listOptionsFromProto(r), o);
  const bare = m.requestDeserialize(
    m.requestSerialize(listOptionsToProto({ prefix: '/registry/nodes/', consistency: 'ANY' }))
  ) as GetListRequest__Output;
  assert.deepEqual(listOptionsFromProto(bare), {
    prefix: '/registry/nodes/',
    consistency: 'ANY',
    revision: 0,
    limit: 0,
    continueToken: '',
    labelSelector: '',
    fieldSelector: '',
  });
});

test('a list result survives the GetList response, items as the same bytes', () => {
  const result: ListResult = {
    items: [Buffer.from('{"a":1}'), Buffer.from('{"b":2}')],
    revision: 9,
    continueToken: 'next',
    remainingItemCount: -1,
  };
  const m = service.GetList;
  const bytes = m.responseSerialize(listResultToProto(result));
  const res = m.responseDeserialize(bytes) as GetListResponse__Output;
  const back = listResultFromProto(res);
  assert.deepEqual(
    back.items.map((b) => Buffer.from(b).toString()),
    ['{"a":1}', '{"b":2}']
  );
  assert.deepEqual({ ...back, items: [] }, { ...result, items: [] });
});

test('preconditions: set fields pass, absent ones and an absent message are none', () => {
  const sent = preconditionsToProto({ uid: 'u', revision: 3 });
  assert.deepEqual(preconditionsFromProto(sent as never), {
    uid: 'u',
    revision: 3,
  });
  assert.deepEqual(preconditionsToProto({}), { uid: '', revision: 0 });
  assert.deepEqual(preconditionsFromProto(null), { uid: '', revision: 0 });
});

test('history changes and the closing progress survive the History stream', () => {
  const m = service.History;
  const through = (e: unknown): Event__Output =>
    m.responseDeserialize(m.responseSerialize(e as never)) as Event__Output;
  const changes: HistoryEvent[] = [
    { type: 'ADDED', key: '/registry/pods/ns1/a', revision: 5, object: Buffer.from('{"v":1}') },
    {
      type: 'MODIFIED',
      key: '/registry/pods/ns1/a',
      revision: 6,
      object: Buffer.from('{"v":2}'),
      prevObject: Buffer.from('{"v":1}'),
    },
    {
      type: 'DELETED',
      key: '/registry/pods/ns1/a',
      revision: 7,
      object: Buffer.from('{"v":2}'),
      prevObject: Buffer.from('{"v":2}'),
    },
  ];
  for (const c of changes) {
    const back = through(historyEventToProto(c));
    assert.equal(historyProgressFromProto(back), undefined);
    const ev = historyEventFromProto(back);
    assert.ok(ev);
    assert.deepEqual(
      { ...ev, object: ev.object.toString(), prevObject: ev.prevObject?.toString() },
      { ...c, object: c.object.toString(), prevObject: c.prevObject?.toString() }
    );
    assert.equal('prevObject' in ev, c.prevObject !== undefined);
  }
  const done = through(historyProgressToProto(7));
  assert.equal(historyProgressFromProto(done), 7);
  assert.equal(historyEventFromProto(done), undefined);
});
