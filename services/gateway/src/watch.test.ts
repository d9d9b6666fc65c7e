// The watch table row by row, selector transitions, bookmarks, 410 after compaction, two
// gateways seeing the same events, and a gateway that loses NATS messages on purpose still
// giving every watcher every event exactly once, in order.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { Etcd3 } from 'etcd3';
import { startSuite, freePort } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { createLogger } from '@orch/component-base/logs';
import { startInBackground } from '@orch/component-base/run';
import { newGatewayConfig } from './config.js';
import { gatewayOptions } from './options.js';
import { suiteGatewayArgs } from './suite-gateway-args.js';
import { GatewayServer } from './server.js';

let suite: Suite;
const ns = 'watching';
const base = `/api/v1/namespaces/${ns}/configmaps`;
const cm = (
  name: string,
  labels: Record<string, string> = {},
  data: Record<string, string> = { a: '1' }
) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });
const rvOf = (b: unknown): string =>
  (b as { metadata: { resourceVersion: string } }).metadata.resourceVersion;

interface Event {
  type: string;
  object: { metadata: { name?: string; resourceVersion: string }; code?: number; reason?: string };
}

/** Opens a watch on a gateway URL; events accumulate in `events`. */
function openWatch(
  url: string,
  path: string
): { events: Event[]; ended: Promise<void>; close(): void; status(): number } {
  const admin = suite.pki.file('admin');
  const events: Event[] = [];
  let status = 0;
  let close = (): void => undefined;
  const ended = new Promise<void>((resolve, reject) => {
    const req = request(
      new URL(path, url),
      {
        ca: readFileSync(suite.pki.caFile),
        cert: readFileSync(admin.certFile),
        key: readFileSync(admin.keyFile),
      },
      (res) => {
        status = res.statusCode ?? 0;
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          buf += c;
          let i;
          while ((i = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, i);
            buf = buf.slice(i + 1);
            if (line.trim()) events.push(JSON.parse(line) as Event);
          }
        });
        res.on('end', () => resolve());
        res.on('close', () => resolve());
      }
    );
    req.on('error', (e) => (e.message.includes('aborted') ? resolve() : reject(e)));
    req.end();
    close = () => req.destroy();
  });
  return { events, ended, close, status: () => status };
}

async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const names = (evs: Event[]) => evs.map((e) => `${e.type} ${e.object.metadata.name ?? ''}`);

before(async () => {
  suite = await startSuite({ gateways: 2 });
  await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  await suite.request(0, 'POST', base, cm('w0'));
});

after(async () => {
  await suite.stop();
});

test('watch table: unset RV begins with synthetic ADDED events, then live changes', async () => {
  const w = openWatch(suite.gateways[0]!, `${base}?watch=1`);
  await until(() => w.events.length >= 1, 'synthetic ADDED');
  await suite.request(0, 'POST', base, cm('w1'));
  await until(() => w.events.length >= 2, 'live ADDED');
  assert.deepEqual(names(w.events), ['ADDED w0', 'ADDED w1']);
  w.close();
});

test('watch table: RV "0" begins with synthetic ADDED events', async () => {
  const w = openWatch(suite.gateways[0]!, `${base}?watch=1&resourceVersion=0`);
  await until(() => w.events.length >= 2, 'synthetic ADDED');
  assert.deepEqual(names(w.events), ['ADDED w0', 'ADDED w1']);
  w.close();
});

test('watch table: other RV starts exactly there, without synthetic events', async () => {
  const listed = await suite.request(0, 'GET', base);
  const rv = rvOf(listed.body);
  await suite.request(0, 'PUT', `${base}/w0`, cm('w0', {}, { a: '2' }));
  await suite.request(0, 'DELETE', `${base}/w1`);
  const w = openWatch(suite.gateways[0]!, `${base}?watch=1&resourceVersion=${rv}`);
  await until(() => w.events.length >= 2, 'replayed events');
  assert.deepEqual(names(w.events), ['MODIFIED w0', 'DELETED w1']);
  w.close();
});

test('watch table: "A watch on an unknown version may wait until the request times out": a resourceVersion ahead of the store sends nothing and ends cleanly at timeoutSeconds', async () => {
  const current = Number(rvOf((await suite.request(0, 'GET', base)).body));
  const started = Date.now();
  const w = openWatch(
    suite.gateways[0]!,
    `${base}?watch=1&resourceVersion=${current + 1_000_000}&timeoutSeconds=2`
  );
  // A change the store makes meanwhile is older than the version asked for: not sent.
  assert.equal((await suite.request(0, 'POST', base, cm('before-future'))).status, 201);
  await w.ended;
  const took = Date.now() - started;
  assert.equal(w.status(), 200);
  assert.deepEqual(w.events, [], 'no event, no ERROR');
  assert.ok(took >= 1900 && took < 10_000, `ended after ${took} ms`);
});

test('Resource paths: "GET with watch | collection or object path": a watch on one object\'s path, or with fieldSelector metadata.name, sees only that object', async () => {
  assert.equal((await suite.request(0, 'POST', base, cm('solo'))).status, 201);
  assert.equal((await suite.request(0, 'POST', base, cm('other'))).status, 201);
  const byPath = openWatch(suite.gateways[0]!, `${base}/solo?watch=1`);
  const byField = openWatch(
    suite.gateways[1]!,
    `${base}?watch=1&fieldSelector=metadata.name%3Dsolo`
  );
  try {
    await until(() => byPath.events.length >= 1 && byField.events.length >= 1, 'synthetic ADDED');
    await suite.request(0, 'PUT', `${base}/other`, cm('other', {}, { a: '2' }));
    await suite.request(0, 'PUT', `${base}/solo`, cm('solo', {}, { a: '2' }));
    await suite.request(0, 'DELETE', `${base}/other`);
    await suite.request(0, 'DELETE', `${base}/solo`);
    await until(() => byPath.events.length >= 3 && byField.events.length >= 3, 'its changes');
    // The last change of all is solo's: had other's reached a watch, it would be there now.
    assert.deepEqual(names(byPath.events), ['ADDED solo', 'MODIFIED solo', 'DELETED solo']);
    assert.deepEqual(names(byField.events), ['ADDED solo', 'MODIFIED solo', 'DELETED solo']);
  } finally {
    byPath.close();
    byField.close();
  }
});

test('watch: selector transitions become ADDED and DELETED; timeoutSeconds ends the stream', async () => {
  const w = openWatch(
    suite.gateways[0]!,
    `${base}?watch=1&labelSelector=tier%3Dfront&timeoutSeconds=3`
  );
  await suite.request(0, 'POST', base, cm('sel'));
  await suite.request(
    0,
    'PATCH',
    `${base}/sel`,
    { metadata: { labels: { tier: 'front' } } },
    { 'Content-Type': 'application/merge-patch+json' }
  );
  await suite.request(
    0,
    'PATCH',
    `${base}/sel`,
    { data: { b: '2' } },
    { 'Content-Type': 'application/merge-patch+json' }
  );
  await suite.request(
    0,
    'PATCH',
    `${base}/sel`,
    { metadata: { labels: { tier: 'back' } } },
    { 'Content-Type': 'application/merge-patch+json' }
  );
  await until(() => w.events.length >= 3, 'transitions');
  assert.deepEqual(names(w.events), ['ADDED sel', 'MODIFIED sel', 'DELETED sel']);
  await w.ended;
});

test('watch: BOOKMARK only with allowWatchBookmarks, holding only the resourceVersion', async () => {
  const quiet = `/api/v1/namespaces/${ns}/secrets`;
  const plain = openWatch(suite.gateways[0]!, `${quiet}?watch=1&timeoutSeconds=4`);
  const marked = openWatch(
    suite.gateways[0]!,
    `${quiet}?watch=1&allowWatchBookmarks=true&timeoutSeconds=4`
  );
  await Promise.all([plain.ended, marked.ended]);
  assert.deepEqual(plain.events, []);
  assert.ok(marked.events.length >= 1, 'progress reaches quiet types');
  for (const e of marked.events) {
    assert.equal(e.type, 'BOOKMARK');
    assert.deepEqual(Object.keys(e.object.metadata), ['resourceVersion']);
  }
});

test('watch: two gateways see the same events', async () => {
  const rv = rvOf((await suite.request(0, 'GET', base)).body);
  const a = openWatch(suite.gateways[0]!, `${base}?watch=1&resourceVersion=${rv}`);
  const b = openWatch(suite.gateways[1]!, `${base}?watch=1&resourceVersion=${rv}`);
  for (let i = 0; i < 5; i++) await suite.request(i % 2, 'POST', base, cm(`two-${i}`));
  await until(() => a.events.length >= 5 && b.events.length >= 5, 'events on both gateways');
  assert.deepEqual(names(a.events), names(b.events));
  a.close();
  b.close();
});

test('watch: a gateway losing NATS messages still gives every watcher every event once, in order', async () => {
  let n = 0;
  const dropped: number[] = [];
  const port = await freePort();
  const gw = await startInBackground(
    new GatewayServer(
      await newGatewayConfig(
        gatewayOptions([
          `--secure-port=${port}`,
          ...suiteGatewayArgs(suite),
          `--authorizer-servers=127.0.0.1:${suite.authorizerPort}`,
        ]),
        createLogger('gateway-test', 'error'),
        {
          // Lose every third change message, and a whole run of four.
          dropMessage: (m) => {
            if (m.type === 'PROGRESS') return false;
            n++;
            const drop = n % 3 === 0 || (n >= 20 && n < 24);
            if (drop) dropped.push(m.revision);
            return drop;
          },
        }
      )
    )
  );
  try {
    const url = `https://127.0.0.1:${gw.port}`;
    const rv = rvOf(
      (await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/serviceaccounts`)).body
    );
    const path = `/api/v1/namespaces/${ns}/serviceaccounts?watch=1&resourceVersion=${rv}`;
    const watchers = [
      openWatch(url, path),
      openWatch(url, path),
      openWatch(url, `${path}&labelSelector=even%3Dyes`),
    ];
    await new Promise((r) => setTimeout(r, 300));
    const expected: string[] = [];
    for (let i = 0; i < 30; i++) {
      const sa = {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: `sa-${i}`, labels: { even: i % 2 === 0 ? 'yes' : 'no' } },
      };
      await suite.request(1, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, sa);
      expected.push(`ADDED sa-${i}`);
    }
    await until(
      () =>
        watchers[0]!.events.length >= 30 &&
        watchers[1]!.events.length >= 30 &&
        watchers[2]!.events.length >= 15,
      'all events despite the drops',
      20_000
    );
    await new Promise((r) => setTimeout(r, 1500)); // any duplicate would arrive by now
    assert.ok(dropped.length >= 10, `messages were dropped (${dropped.length})`);
    assert.deepEqual(names(watchers[0]!.events), expected);
    assert.deepEqual(names(watchers[1]!.events), expected);
    assert.deepEqual(
      names(watchers[2]!.events),
      expected.filter((_, i) => i % 2 === 0)
    );
    for (const w of watchers) {
      const rvs = w.events.map((e) => Number(e.object.metadata.resourceVersion));
      assert.deepEqual(
        rvs,
        [...rvs].sort((x, y) => x - y),
        'in revision order'
      );
      w.close();
    }
  } finally {
    await gw.stop();
  }
});

test('watch table: a resourceVersion older than the kept history ends with an ERROR 410', async () => {
  const old = rvOf((await suite.request(0, 'GET', base)).body);
  await suite.request(0, 'POST', base, cm('after-compaction'));
  const etcd = new Etcd3({ hosts: suite.etcd.endpoint });
  const current = Number(rvOf((await suite.request(0, 'GET', base)).body));
  await etcd.kv.compact({ revision: current });
  etcd.close();
  const w = openWatch(
    suite.gateways[1]!,
    `/api/v1/namespaces/${ns}/pods?watch=1&resourceVersion=${Number(old) - 1}`
  );
  await w.ended;
  assert.equal(w.events.length, 1);
  assert.equal(w.events[0]!.type, 'ERROR');
  assert.equal(w.events[0]!.object.code, 410);
});

test('a change too large for one NATS message (a 600 KiB ConfigMap updated: the object and the one before it) reaches a watcher from history, in order, and publishing goes on', async () => {
  const big = (v: string) => cm('big', {}, { v: v.repeat(600 * 1024) });
  const first = await suite.request(0, 'POST', base, cm('before-big'));
  const w = openWatch(suite.gateways[1]!, `${base}?watch=1&resourceVersion=${rvOf(first.body)}`);
  try {
    assert.equal((await suite.request(0, 'POST', base, big('a'))).status, 201);
    assert.equal((await suite.request(0, 'PUT', `${base}/big`, big('b'))).status, 200);
    assert.equal((await suite.request(0, 'POST', base, cm('after-big'))).status, 201);
    await until(() => w.events.length >= 3, 'the three events');
    assert.deepEqual(names(w.events), ['ADDED big', 'MODIFIED big', 'ADDED after-big']);
    const storage = suite.processNames().find((n) => n.startsWith('storage'))!;
    assert.match(suite.logTail(storage, 200), /change too large to publish/);
  } finally {
    w.close();
  }
});

test('a consistent list right after a change too large for NATS holds it (the subject learns of the skipped change before the stream passes it)', async () => {
  // A consistent list may be served by a cache that the whole change stream has proven complete
  // up to the list's revision; a change the publisher could not send must not be skipped there.
  for (let i = 0; i < 5; i++) {
    const name = `big-listed-${i}`;
    const made = await suite.request(0, 'POST', base, cm(name, {}, { v: 'x'.repeat(1024 * 1024) }));
    assert.equal(made.status, 201, made.text);
    const list = await suite.request(1, 'GET', base);
    assert.equal(list.status, 200, list.text);
    const items = (list.body as { items: { metadata: { name: string } }[] }).items;
    assert.ok(
      items.some((o) => o.metadata.name === name),
      `${name} in the list at ${rvOf(list.body)} (made at ${rvOf(made.body)})`
    );
  }
});
