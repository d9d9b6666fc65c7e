// The public API as the controllers' ListerWatcher, against a real suite: a paged list at one
// resourceVersion, a watch from it delivering every change in order with its revision, a
// watch ended by its timeout resolving (the reflector watches again), and a watch from
// compacted history rejecting with the 410 the server sent.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Etcd3 } from 'etcd3';
import { RestClient, loadKubeconfig } from '@orch/apimachinery/client';
import { isGone } from '@orch/apimachinery/errors';
import { RestListerWatcher, SharedInformer } from '@orch/apimachinery/informer';
import type { WatchSink } from '@orch/apimachinery/informer';
import { startSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
let client: RestClient;
/** A revision from before the configmaps, older than any watch cache of them. */
let before7 = 0;
const ns = 'lw';
const base = `/api/v1/namespaces/${ns}/configmaps`;

before(async () => {
  // Nothing else watches configmaps here, so the gateway's cache of them starts with this test's
  // first list, after before7 (the garbage collector watches every kind and the bootstrap signer
  // watches configmaps: neither runs).
  suite = await startSuite({
    controllers: false,
    certificates: true,
    certificatesArgs: ['--controllers=csrapproving,csrsigning,csrcleaner'],
  });
  client = new RestClient(loadKubeconfig(suite.kubeconfigs[0]!));
  const created = await client.request('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  before7 = Number((created['metadata'] as { resourceVersion: string }).resourceVersion);
  for (let i = 0; i < 7; i++)
    await client.request('POST', base, { metadata: { name: `cm-${i}` }, data: { i: String(i) } });
});

after(async () => {
  client?.close();
  await suite?.stop();
});

interface Seen {
  type: string;
  name: string;
  revision: number;
}

function recorder(): { sink: WatchSink; seen: Seen[]; bookmarks: number[] } {
  const seen: Seen[] = [];
  const bookmarks: number[] = [];
  return {
    seen,
    bookmarks,
    sink: {
      change: (type, object, revision) =>
        seen.push({ type, name: (object['metadata'] as { name: string }).name, revision }),
      progress: (revision) => bookmarks.push(revision),
    },
  };
}

test('list: every page read at the first page resourceVersion', async () => {
  const lw = new RestListerWatcher(client, base, { pageSize: 3 });
  const { items, revision } = await lw.list(new AbortController().signal);
  assert.deepEqual(items.map((o) => (o['metadata'] as { name: string }).name).sort(), [
    'cm-0',
    'cm-1',
    'cm-2',
    'cm-3',
    'cm-4',
    'cm-5',
    'cm-6',
  ]);
  const whole = await client.request('GET', base);
  assert.ok(
    revision > 0 &&
      revision <= Number((whole['metadata'] as { resourceVersion: string }).resourceVersion)
  );
});

test('watch: every change after the list, in order, with its revision; abort resolves', async () => {
  const lw = new RestListerWatcher(client, base);
  const { revision } = await lw.list(new AbortController().signal);
  const { sink, seen } = recorder();
  const stop = new AbortController();
  const watching = lw.watch(revision, sink, stop.signal);
  await client.request('POST', base, { metadata: { name: 'late' } });
  await client.request('PUT', `${base}/cm-0`, { metadata: { name: 'cm-0' }, data: { i: 'x' } });
  await client.request('DELETE', `${base}/cm-1`);
  await waitFor('three changes', () => Promise.resolve(seen.length === 3), { timeoutMs: 10_000 });
  stop.abort();
  await watching;
  assert.deepEqual(
    seen.map((s) => `${s.type} ${s.name}`),
    ['ADDED late', 'MODIFIED cm-0', 'DELETED cm-1']
  );
  assert.ok(seen[0]!.revision > revision);
  assert.ok(seen[1]!.revision > seen[0]!.revision && seen[2]!.revision > seen[1]!.revision);
});

test('watch: the server ending the watch at its timeout resolves, for the reflector to watch again', async () => {
  const lw = new RestListerWatcher(client, base, { watchTimeoutSeconds: 1 });
  const { revision } = await lw.list(new AbortController().signal);
  const { sink } = recorder();
  await lw.watch(revision, sink, new AbortController().signal);
});

test('watch: from compacted history rejects with the 410 Status, for the reflector to list again', async () => {
  const lw = new RestListerWatcher(client, base, { watchTimeoutSeconds: 5 });
  await client.request('POST', base, { metadata: { name: 'after-compaction' } });
  const current = (await lw.list(new AbortController().signal)).revision;
  const etcd = new Etcd3({ hosts: suite.etcd.endpoint });
  try {
    await etcd.kv.compact({ revision: current });
  } finally {
    etcd.close();
  }
  const { sink, seen } = recorder();
  await assert.rejects(lw.watch(before7, sink, new AbortController().signal), (err) => isGone(err));
  assert.equal(seen.length, 0);
});

test('informer over the public API: synced from the list, then kept by the watch', async () => {
  const informer = new SharedInformer({
    listerWatcher: new RestListerWatcher(client, base, { pageSize: 2 }),
    name: base,
  });
  const added: string[] = [];
  informer.addEventHandler({
    onAdd: (o) => added.push((o['metadata'] as { name: string }).name),
  });
  await informer.start();
  try {
    assert.ok(informer.synced);
    assert.ok(informer.get(`${ns}/cm-2`));
    await client.request('POST', base, { metadata: { name: 'seen-by-informer' } });
    await waitFor(
      'the informer sees the new configmap',
      () => Promise.resolve(informer.get(`${ns}/seen-by-informer`) !== undefined),
      { timeoutMs: 10_000 }
    );
    assert.ok(added.includes('seen-by-informer'));
  } finally {
    informer.stop();
  }
});
