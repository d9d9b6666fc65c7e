// Storage against real etcd and NATS: CRUD with preconditions, paged lists, history replay,
// compaction, and publishing by exactly one of two replicas across a leader failure.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { StorageClient } from '@orch/apimachinery/grpc';
import { StatusError } from '@orch/apimachinery/errors';
import { revisionRequestSubject } from '@orch/apimachinery/watch';
import type { WatchMessage } from '@orch/apimachinery/watch';
import { connect } from 'nats';
import { clientCredentials } from '@orch/component-base/grpc-server';
import { createLogger } from '@orch/component-base/logs';
import { startEtcd, startNats, throwawayPki, waitFor } from '@orch/testing';
import type { EtcdServer, NatsServer, ThrowawayPki } from '@orch/testing';
import { startInBackground } from '@orch/component-base/run';
import { collectPublished } from './collect-published.js';
import { Compactor } from './etcd3/compactor.js';
import { newStorageConfig } from './config.js';
import { storageOptions } from './options.js';
import { StorageServer } from './server.js';
import { replicaFlags } from './test-replica.js';

/** A replica running in the background: its port, its elector, stop(). */
interface Replica {
  port: number;
  elector: StorageServer['elector'];
  stop(): Promise<void>;
}

let etcd: EtcdServer;
let nats: NatsServer;
let pki: ThrowawayPki;
const servers: Replica[] = [];
const log = createLogger('storage-test', 'error');

async function replica(name: string): Promise<{ server: Replica; client: StorageClient }> {
  const options = storageOptions(
    replicaFlags({
      etcdEndpoint: etcd.endpoint,
      natsUrl: nats.url,
      pki,
      port: 0,
      identity: name,
      more: [
        '--progress-interval=200ms',
        '--leader-elect-ttl=2s',
        '--compaction-interval=100ms',
        '--compaction-retention=1h',
        '--max-object-size-bytes=100000',
      ],
    })
  );
  const storage = new StorageServer(await newStorageConfig(options, log));
  const server = { ...(await startInBackground(storage)), elector: storage.elector };
  servers.push(server);
  const gw = pki.file('gateway');
  const client = new StorageClient({
    address: `127.0.0.1:${server.port}`,
    credentials: clientCredentials({
      caFile: pki.caFile,
      certFile: gw.certFile,
      keyFile: gw.keyFile,
    }),
  });
  return { server, client };
}

const cm = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, ...extra },
  data: { a: '1' },
});

const prefix = '/registry/core/configmaps/';
let client: StorageClient;
let first: Replica;

before(async () => {
  [etcd, nats, pki] = await Promise.all([startEtcd(), startNats(), throwawayPki()]);
  ({ client, server: first } = await replica('a'));
  await waitFor('first replica leads', async () => first.elector.leading, { timeoutMs: 10_000 });
});

after(async () => {
  for (const s of servers) await s.stop().catch(() => undefined);
  client.close();
  await Promise.all([etcd.stop(), nats.stop(), pki.cleanup()]);
});

const reason = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof StatusError ? `${e.code} ${e.reason}` : String(e))
  );

test('create, get, conflicting update and delete keep the store consistent', async () => {
  const created = await client.create(`${prefix}ns/one`, cm('one'));
  const rv = Number((created['metadata'] as { resourceVersion: string }).resourceVersion);
  assert.ok(rv > 0);
  assert.equal(await reason(client.create(`${prefix}ns/one`, cm('one'))), '409 AlreadyExists');
  const got = await client.get(`${prefix}ns/one`, 'MOST_RECENT');
  assert.deepEqual(got, created);
  const updated = await client.update(
    `${prefix}ns/one`,
    { ...cm('one'), data: { a: '2' } },
    { revision: rv }
  );
  assert.equal(
    await reason(client.update(`${prefix}ns/one`, cm('one'), { revision: rv })),
    '409 Conflict',
    'a stale revision never overwrites'
  );
  assert.equal(
    await reason(client.update(`${prefix}ns/one`, cm('one'), { uid: 'other' })),
    '409 Conflict'
  );
  assert.deepEqual((await client.get(`${prefix}ns/one`, 'MOST_RECENT'))['data'], { a: '2' });
  assert.equal(await reason(client.get(`${prefix}ns/missing`, 'MOST_RECENT')), '404 NotFound');
  const urv = Number((updated['metadata'] as { resourceVersion: string }).resourceVersion);
  assert.equal(
    await reason(client.get(`${prefix}ns/one`, 'NOT_OLDER_THAN', urv + 1000)),
    '504 Timeout'
  );
  const del = await client.delete(`${prefix}ns/one`, { revision: urv });
  assert.deepEqual(del.object['data'], { a: '2' });
  assert.equal(await reason(client.delete(`${prefix}ns/one`, {})), '404 NotFound');
});

test('an object over the size limit is 413, never stored', async () => {
  const big = cm('big');
  (big as Record<string, unknown>)['data'] = { a: 'x'.repeat(200_000) };
  assert.equal(await reason(client.create(`${prefix}ns/big`, big)), '413 RequestEntityTooLarge');
  assert.equal(await reason(client.get(`${prefix}ns/big`, 'MOST_RECENT')), '404 NotFound');
});

test('paged lists keep one snapshot revision and count what remains', async () => {
  for (let i = 0; i < 5; i++)
    await client.create(`${prefix}paged/p${i}`, cm(`p${i}`, { labels: { i: String(i % 2) } }));
  const page1 = await client.list({
    prefix: `${prefix}paged/`,
    consistency: 'MOST_RECENT',
    limit: 2,
  });
  assert.equal(page1.items.length, 2);
  assert.equal(page1.remainingItemCount, 3);
  await client.create(`${prefix}paged/p9`, cm('p9'));
  const page2 = await client.list({
    prefix: `${prefix}paged/`,
    consistency: 'MOST_RECENT',
    limit: 2,
    continueToken: page1.continueToken,
  });
  const page3 = await client.list({
    prefix: `${prefix}paged/`,
    consistency: 'MOST_RECENT',
    limit: 2,
    continueToken: page2.continueToken,
  });
  assert.equal(page2.revision, page1.revision);
  assert.equal(page3.revision, page1.revision);
  assert.equal(page3.continueToken, '', 'the object created after the snapshot is not in it');
  assert.equal(page3.remainingItemCount, -1);
  const names = [...page1.items, ...page2.items, ...page3.items].map(
    (o) => (o['metadata'] as { name: string }).name
  );
  assert.deepEqual(names, ['p0', 'p1', 'p2', 'p3', 'p4']);
  const labelled = await client.list({
    prefix: `${prefix}paged/`,
    consistency: 'MOST_RECENT',
    labelSelector: 'i=1',
    limit: 1,
  });
  assert.equal(labelled.items.length, 1);
  assert.equal(labelled.remainingItemCount, -1, 'no remaining count with a selector');
  const byField = await client.list({
    prefix: `${prefix}paged/`,
    consistency: 'MOST_RECENT',
    fieldSelector: 'metadata.name=p3',
  });
  assert.deepEqual(
    byField.items.map((o) => (o['metadata'] as { name: string }).name),
    ['p3']
  );
  assert.equal(
    await reason(
      client.list({
        prefix: `${prefix}paged/`,
        consistency: 'MOST_RECENT',
        labelSelector: 'a in (',
      })
    ),
    '400 BadRequest'
  );
  assert.equal(
    await reason(
      client.list({
        prefix: `${prefix}paged/`,
        consistency: 'MOST_RECENT',
        continueToken: 'garbage!',
      })
    ),
    '400 BadRequest'
  );
});

test('List and watch continuity: "list in progress | token older than its lifetime | 410 error, restart the list"; Limits: "Continue token lifetime | 5 minutes by default"', async () => {
  // The token lives as long as its revision's history: the default compaction (the clock
  // given to compactOnce) keeps five minutes of it.
  const defaults = storageOptions(
    replicaFlags({ etcdEndpoint: etcd.endpoint, natsUrl: nats.url, pki, port: 0, identity: 'd' })
  );
  assert.equal(defaults.compactionRetentionMs, 5 * 60_000);
  const { Etcd3 } = await import('etcd3');
  const e = new Etcd3({ hosts: etcd.endpoint });
  const compactor = new Compactor(e, log, {
    retentionMs: defaults.compactionRetentionMs,
    intervalMs: defaults.compactionIntervalMs,
  });
  try {
    const at = `${prefix}token-life/`;
    for (let i = 0; i < 3; i++) await client.create(`${at}t${i}`, cm(`t${i}`));
    const first = await client.list({ prefix: at, consistency: 'MOST_RECENT', limit: 1 });
    assert.ok(first.continueToken);
    await client.create(`${at}later`, cm('later')); // writes go on after the first page
    const t0 = Date.now();
    await compactor.compactOnce(t0);
    // A moment short of five minutes: the token still pages, at the first page's revision.
    await compactor.compactOnce(t0 + defaults.compactionRetentionMs - 1);
    const next = { prefix: at, consistency: 'MOST_RECENT' as const, limit: 1 };
    const second = await client.list({ ...next, continueToken: first.continueToken });
    assert.equal(second.revision, first.revision);
    assert.deepEqual(
      second.items.map((o) => (o['metadata'] as { name: string }).name),
      ['t1']
    );
    // Five minutes on: the token is 410 Expired, and a new list starts over.
    assert.ok((await compactor.compactOnce(t0 + defaults.compactionRetentionMs)) > first.revision);
    const expired = await client.list({ ...next, continueToken: second.continueToken }).then(
      () => undefined,
      (err: unknown) => err
    );
    assert.ok(expired instanceof StatusError, String(expired));
    assert.equal(expired.code, 410);
    assert.equal(expired.reason, 'Expired');
    assert.match(expired.message, /^The provided continue parameter is too old/);
    const again = await client.list({ prefix: at, consistency: 'MOST_RECENT' });
    assert.equal(again.items.length, 4);
  } finally {
    compactor.stop();
    e.close();
  }
});

test('history replays every change after a revision, in order, and compaction makes it 410', async () => {
  const start = await client.currentRevision();
  const a = await client.create(`${prefix}h/a`, cm('a'));
  const arv = Number((a['metadata'] as { resourceVersion: string }).resourceVersion);
  await client.update(`${prefix}h/a`, { ...cm('a'), data: { a: '3' } }, {});
  await client.delete(`${prefix}h/a`, {});
  const events: string[] = [];
  const until = await client.history(prefix, start, (e) =>
    events.push(`${e.type} ${(e.object['metadata'] as { name: string }).name}`)
  );
  assert.deepEqual(events, ['ADDED a', 'MODIFIED a', 'DELETED a']);
  assert.ok(until > arv);
  await etcdCompact(await client.currentRevision());
  assert.equal(await reason(client.history(prefix, start, () => undefined)), '410 Expired');
  assert.equal(
    await reason(client.list({ prefix, consistency: 'EXACT', revision: arv })),
    '410 Expired'
  );
});

test('a history replay leaves no watch open on etcd (each kept every change coming, decoded, for good)', async () => {
  const watchers = async (): Promise<number> => {
    const text = await (await fetch(`${etcd.endpoint}/metrics`)).text();
    return Number(/^etcd_debugging_mvcc_watcher_total (\d+)$/m.exec(text)?.[1] ?? NaN);
  };
  // The publisher's own watch stays; settle first, as a replay of another test may be ending.
  await waitFor('watchers settle', async () => (await watchers()) <= 1, { timeoutMs: 5000 });
  const before = await watchers();
  const start = await client.currentRevision();
  await client.create(`${prefix}hw/a`, cm('a'));
  for (let i = 0; i < 10; i++) await client.history(prefix, start, () => undefined);
  await waitFor("the replays' watches are gone", async () => (await watchers()) === before, {
    timeoutMs: 5000,
  });
});

async function etcdCompact(revision: number): Promise<void> {
  const { Etcd3 } = await import('etcd3');
  const e = new Etcd3({ hosts: etcd.endpoint });
  await e.kv.compact({ revision });
  e.close();
}

test('exactly one of two replicas publishes; after the leader dies the other publishes every change', async () => {
  const published = await collectPublished(nats.url);
  const seen = published.seen;
  const second = await replica('b');
  const before = await client.currentRevision();
  for (let i = 0; i < 5; i++) await client.create(`${prefix}fo/x${i}`, cm(`x${i}`));
  await waitFor('5 changes published', async () => changes(seen, before).length === 5, {
    timeoutMs: 10_000,
  });
  assert.equal(servers.filter((s) => s.elector.leading).length, 1, 'one leader');
  assert.equal(
    new Set(changes(seen, before).map((m) => m.revision)).size,
    5,
    'no duplicate while one leader publishes'
  );

  await first.stop(); // the leader goes away: its lease ends, the second replica takes over
  for (let i = 5; i < 10; i++) await second.client.create(`${prefix}fo/x${i}`, cm(`x${i}`));
  await waitFor(
    '10 changes published',
    async () => new Set(changes(seen, before).map((m) => m.revision)).size === 10,
    { timeoutMs: 20_000 }
  );
  assert.ok(second.server.elector.leading);
  const names = [
    ...new Set(
      changes(seen, before).map((m) =>
        m.type === 'PROGRESS' ? '' : (m.object['metadata'] as { name: string }).name
      )
    ),
  ];
  assert.deepEqual(
    names,
    Array.from({ length: 10 }, (_, i) => `x${i}`),
    'no change lost, in order'
  );
  second.client.close();
  await published.close();
});

function changes(seen: WatchMessage[], after: number): WatchMessage[] {
  return seen.filter((m) => m.type !== 'PROGRESS' && m.revision > after);
}

test('a leader that starts behind a compaction publishes from the compacted revision on, under a new epoch, and vouches for no revision', async () => {
  for (const s of servers) await s.stop().catch(() => undefined); // nobody publishes now
  const { Etcd3 } = await import('etcd3');
  const e = new Etcd3({ hosts: etcd.endpoint });
  const put = async (name: string): Promise<number> =>
    Number(
      (
        await e
          .put(`${prefix}behind/${name}`)
          .value(JSON.stringify({ ...cm(name), metadata: { name, namespace: 'behind' } }))
          .exec()
      ).header.revision
    );
  const compactAt = await put('y0');
  await e.kv.compact({ revision: compactAt }); // the last checkpoint is older than this
  await put('y1');
  await put('y2');
  e.close();
  const published = await collectPublished(nats.url);
  const seen = published.seen;
  const late = await replica('d');
  const names = (): string[] =>
    changes(seen, compactAt - 1).map((m) =>
      m.type === 'PROGRESS' ? '' : (m.object['metadata'] as { name: string }).name
    );
  await waitFor('the changes after the compaction published', async () => names().includes('y2'), {
    timeoutMs: 15_000,
  });
  // y0 is at the compacted revision itself (still in history); nothing after it is skipped.
  assert.deepEqual(names(), ['y0', 'y1', 'y2']);
  // A term that skipped history vouches for no revision: consistent reads read etcd's instead.
  const nc = await connect({ servers: nats.url });
  const reply = await nc.request(revisionRequestSubject, undefined, { timeout: 2000 });
  assert.equal(reply.data.length, 0);
  await nc.close();
  late.client.close();
  await published.close();
});
