// The spec's resourceVersion tables for reads the gateways answer from their watch caches, over
// HTTPS against a real suite with two gateways: a write through one gateway is seen by a
// consistent read through the other at once (the read waited for the cache, counted in the
// metric as served from it), "0" reads and paged lists keep their rows, and /readyz names the
// watch-cache check.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'cache-tables';
const base = `/api/v1/namespaces/${ns}/configmaps`;
const rvOf = (b: unknown): string =>
  (b as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
const namesOf = (b: unknown): string[] =>
  (b as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name);
const cm = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { a: '1' },
});

/** A gateway's count of consistent reads of configmaps served from its cache or by storage. */
async function consistentReads(gw: number, fallback: boolean): Promise<number> {
  const text = (await suite.request(gw, 'GET', '/metrics')).text;
  const re = new RegExp(
    `orch_gateway_watch_cache_consistent_read_total\\{resource="configmaps",success="true",fallback="${fallback}"\\} (\\d+)`
  );
  return Number(re.exec(text)?.[1] ?? 0);
}

/** A gateway's count of reads of configmaps that waited (or not) for its cache's revision. */
async function readWaits(gw: number): Promise<number> {
  const text = (await suite.request(gw, 'GET', '/metrics')).text;
  const re = /^orch_gateway_watch_cache_read_wait_seconds_count\{resource="configmaps"\} (\d+)$/m;
  return Number(re.exec(text)?.[1] ?? 0);
}

before(async () => {
  suite = await sharedSuite();
  const created = await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  assert.equal(created.status, 201);
  for (let i = 0; i < 5; i++)
    assert.equal((await suite.request(1, 'POST', base, cm(`c${i}`))).status, 201);
  // The first read starts gateway 0's configmaps cache; it serves once synced.
  await waitFor(
    'gateway 0 serves consistent reads from its cache',
    async () => {
      await suite.request(0, 'GET', `${base}/c0`);
      return (await consistentReads(0, false)) > 0;
    },
    { timeoutMs: 10_000 }
  );
});

after(async () => {
  await suite.stop();
});

test('get table (from the cache): unset is Most recent — a write through the other gateway is read at once', async () => {
  const before = await consistentReads(0, false);
  const waitsBefore = await readWaits(0);
  for (let i = 0; i < 10; i++) {
    const written = await suite.request(1, 'POST', base, cm(`ryw-${i}`));
    assert.equal(written.status, 201);
    const read = await suite.request(0, 'GET', `${base}/ryw-${i}`);
    assert.equal(read.status, 200, 'a consistent read sees every write that completed before it');
    assert.equal(rvOf(read.body), rvOf(written.body));
    const updated = await suite.request(1, 'PUT', `${base}/ryw-${i}`, {
      ...cm(`ryw-${i}`),
      data: { a: '2' },
    });
    assert.equal(updated.status, 200);
    assert.equal(
      rvOf((await suite.request(0, 'GET', `${base}/ryw-${i}`)).body),
      rvOf(updated.body)
    );
    assert.equal((await suite.request(1, 'DELETE', `${base}/ryw-${i}`)).status, 200);
    assert.equal((await suite.request(0, 'GET', `${base}/ryw-${i}`)).status, 404);
  }
  assert.ok((await consistentReads(0, false)) - before >= 30, 'served from the cache');
  // Each waited for the cache to reach storage's revision (upstream's read_wait_seconds).
  assert.ok((await readWaits(0)) - waitsBefore >= 30, 'the waits are timed');
});

test('get table (from the cache): "0" is Any, other Not older than, a future version 504', async () => {
  const written = await suite.request(1, 'POST', base, cm('any'));
  assert.equal((await suite.request(0, 'GET', `${base}/c0?resourceVersion=0`)).status, 200);
  const notOlder = await suite.request(
    0,
    'GET',
    `${base}/any?resourceVersion=${rvOf(written.body)}`
  );
  assert.equal(notOlder.status, 200, 'waits until the cache has the version');
  assert.equal(rvOf(notOlder.body), rvOf(written.body));
  const future = await suite.request(0, 'GET', `${base}/c0?resourceVersion=99999999`);
  assert.equal(future.status, 504);
  assert.match((future.body as { message: string }).message, /Too large resource version/);
});

test('list table (from the cache): unset RV is Most recent, NotOlderThan waits, continue pages at the token version', async () => {
  const written = await suite.request(1, 'POST', base, cm('listed'));
  const recent = await suite.request(0, 'GET', base);
  assert.ok(namesOf(recent.body).includes('listed'), 'the other gateway’s write is listed');
  assert.ok(Number(rvOf(recent.body)) >= Number(rvOf(written.body)));
  const notOlder = await suite.request(
    0,
    'GET',
    `${base}?resourceVersionMatch=NotOlderThan&resourceVersion=${rvOf(written.body)}`
  );
  assert.ok(namesOf(notOlder.body).includes('listed'));
  const p1 = await suite.request(0, 'GET', `${base}?limit=3`);
  const meta = (p1.body as { metadata: { continue: string; remainingItemCount: number } }).metadata;
  assert.deepEqual(namesOf(p1.body), ['any', 'c0', 'c1']);
  // Changes after the first page are not in the next ones.
  assert.equal((await suite.request(1, 'DELETE', `${base}/c3`)).status, 200);
  assert.equal((await suite.request(1, 'POST', base, cm('c2-late'))).status, 201);
  const p2 = await suite.request(0, 'GET', `${base}?limit=3&continue=${meta.continue}`);
  assert.equal(rvOf(p2.body), rvOf(p1.body), 'constant across chunks');
  assert.deepEqual(namesOf(p2.body), ['c2', 'c3', 'c4']);
  const exact = await suite.request(
    0,
    'GET',
    `${base}?resourceVersionMatch=Exact&resourceVersion=${rvOf(p1.body)}`
  );
  assert.deepEqual(namesOf(exact.body), ['any', 'c0', 'c1', 'c2', 'c3', 'c4', 'listed']);
});

test('readyz: the watch caches are a named check', async () => {
  const r = await suite.request(0, 'GET', '/readyz?verbose');
  assert.equal(r.status, 200);
  assert.match(r.text, /\[\+\]watch-cache-sync ok/);
});

test('concurrent consistent reads share revision reads, asked of the publisher (at most one each, counted in the metric), each seeing a write through the other gateway', async () => {
  const revisionReads = async (source = 'publisher'): Promise<number> => {
    const text = (await suite.request(0, 'GET', '/metrics')).text;
    const line = new RegExp(
      `^orch_gateway_watch_cache_revision_reads_total\\{source="${source}"\\} (\\d+)$`,
      'm'
    );
    return Number(line.exec(text)?.[1] ?? NaN);
  };
  const before = await revisionReads();
  const written = await suite.request(1, 'POST', base, cm('shared-read'));
  assert.equal(written.status, 201);
  const reads = await Promise.all(
    Array.from({ length: 20 }, () => suite.request(0, 'GET', `${base}/shared-read`))
  );
  for (const r of reads) assert.equal(rvOf(r.body), rvOf(written.body));
  const counted = (await revisionReads()) - before;
  assert.ok(counted >= 1 && counted <= 20, `${counted} revision reads for 20 consistent reads`);
  const text = (await suite.request(0, 'GET', '/metrics')).text;
  assert.match(
    text,
    /^orch_gateway_watch_cache_revision_read_seconds_count\{source="publisher"[^}]*\} [1-9]/m
  );
});
