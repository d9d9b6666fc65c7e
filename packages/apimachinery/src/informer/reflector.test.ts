// The Reflector's two recoveries over a scripted ListerWatcher (the contract is all a source
// implements; the storage+NATS source runs against real etcd and NATS in the gateway's cache
// tests): a watch that fails is watched again from the last revision delivered, and a 410 lists
// again and replaces the state.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newInternalError, newResourceExpired } from '../errors/index.js';
import type { ChangeType, ListerWatcher, ReflectorSink, WatchSink } from './interfaces.js';
import { Reflector } from './reflector.js';

type Obj = Record<string, unknown>;
const obj = (name: string, rv: number): Obj => ({
  metadata: { name, resourceVersion: String(rv) },
});

/** A source whose lists and watches play a script, recording what the reflector asked. */
class ScriptedSource implements ListerWatcher {
  readonly lists: number[] = [];
  readonly watches: number[] = [];
  constructor(
    readonly listScript: { items: Obj[]; revision: number }[],
    readonly watchScript: ((from: number, sink: WatchSink) => Promise<void>)[]
  ) {}

  async list(): Promise<{ items: Obj[]; revision: number }> {
    const r = this.listScript[this.lists.length];
    this.lists.push(r?.revision ?? -1);
    if (!r) throw new Error('no more lists');
    return r;
  }

  async watch(from: number, sink: WatchSink, signal: AbortSignal): Promise<void> {
    const step = this.watchScript[this.watches.length];
    this.watches.push(from);
    if (step) return step(from, sink);
    // Nothing more: wait until stopped.
    await new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }));
  }
}

class RecordingSink implements ReflectorSink {
  readonly log: string[] = [];
  replace(items: Obj[], revision: number): void {
    this.log.push(`replace@${revision}:${items.length}`);
  }
  change(type: ChangeType, object: Obj, revision: number): void {
    this.log.push(`${type} ${(object['metadata'] as { name: string }).name}@${revision}`);
  }
  progress(revision: number): void {
    this.log.push(`progress@${revision}`);
  }
}

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

test('reflector: a failed watch is watched again from the last revision delivered', async () => {
  const src = new ScriptedSource(
    [{ items: [obj('a', 5)], revision: 10 }],
    [
      async (_from, sink) => {
        sink.change('ADDED', obj('b', 11), 11);
        sink.change('MODIFIED', obj('b', 12), 12);
        throw newInternalError(new Error('connection lost'));
      },
      async (_from, sink) => {
        // The source replays from where it was asked; a change already delivered is dropped.
        sink.change('MODIFIED', obj('b', 12), 12);
        sink.change('DELETED', obj('a', 13), 13);
        sink.progress(12);
        sink.progress(15);
      },
    ]
  );
  const sink = new RecordingSink();
  const r = new Reflector(src, sink, { retryMs: 1 });
  const running = r.run();
  await until(() => src.watches.length >= 3);
  r.stop();
  await running;
  assert.deepEqual(src.lists, [10], 'listed once');
  // After a change at 12 the revision may be partly delivered (one etcd transaction can change
  // several keys): the next watch starts after 11, and what it repeats of 12 is dropped.
  assert.deepEqual(src.watches, [10, 11, 15], 'watched from the list, then from the last revision');
  assert.deepEqual(sink.log, [
    'replace@10:1',
    'ADDED b@11',
    'MODIFIED b@12',
    'DELETED a@13',
    'progress@15',
  ]);
  assert.equal(r.lastRevision, 15);
});

test('reflector: a 410 lists again and replaces the state, then watches from the new list', async () => {
  const src = new ScriptedSource(
    [
      { items: [obj('a', 5)], revision: 10 },
      { items: [obj('a', 5), obj('c', 30)], revision: 40 },
    ],
    [
      async (_from, sink) => {
        sink.change('ADDED', obj('b', 11), 11);
        throw newResourceExpired('too old resource version: 11');
      },
    ]
  );
  const sink = new RecordingSink();
  const r = new Reflector(src, sink, { retryMs: 1 });
  const running = r.run();
  await until(() => src.watches.length >= 2);
  r.stop();
  await running;
  assert.deepEqual(src.lists, [10, 40], 'listed again after the 410');
  assert.deepEqual(src.watches, [10, 40]);
  assert.deepEqual(sink.log, ['replace@10:1', 'ADDED b@11', 'replace@40:2']);
  assert.equal(r.lists, 2);
});

test('reflector: a failed list is retried until it succeeds', async () => {
  let failures = 0;
  const src = new ScriptedSource([{ items: [], revision: 7 }], []);
  const list = src.list.bind(src);
  src.list = async () => {
    if (failures++ < 2) throw newInternalError(new Error('storage unavailable'));
    return list();
  };
  const sink = new RecordingSink();
  const r = new Reflector(src, sink, { retryMs: 1 });
  const running = r.run();
  await until(() => src.watches.length >= 1);
  r.stop();
  await running;
  assert.equal(failures, 3);
  assert.deepEqual(sink.log, ['replace@7:0']);
  assert.deepEqual(src.watches, [7]);
});
