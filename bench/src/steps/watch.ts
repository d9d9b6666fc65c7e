// watch: 100 watchers over the two gateways while changes are written at 1000/s, through the
// gateways ('watch') or straight into etcd at the storage keys ('watch via etcd'), beside a
// NATS fan-out to as many subscribers; with where the time goes (raw etcd and NATS taps).
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { now } from '@orch/apimachinery/meta';
import { waitFor } from '@orch/testing';
import { connect as natsConnect } from 'nats';
import { natsFanOut } from '../baselines.js';
import type { Gateway } from '../client.js';
import { startCpuCount } from '../cpu.js';
import { f } from '../report.js';
import { pct } from '../stats.js';
import type { BenchContext, BenchStep } from '../step.js';
import { sentStampRe, wallClock } from '../watch-clients.js';
import { startWatchClients } from '../watches.js';

export const watch: BenchStep = { name: 'watch', run: (ctx) => benchWatch(ctx, 'gateway') };
export const watchViaEtcd: BenchStep = {
  name: 'watch via etcd',
  run: (ctx) => benchWatch(ctx, 'etcd'),
};

async function benchWatch(ctx: BenchContext, via: 'gateway' | 'etcd'): Promise<void> {
  const { gateways: gws, natsUrl, etcd, client } = ctx;
  const { call, createNamespace, mustCall } = client;
  const { rows, notes } = ctx.report;
  const ns = `bench-watch-${via}`;
  const label = `watch, writes via ${via}`;
  const perGateway = Number(process.env['BENCH_WATCHERS_PER_GATEWAY'] ?? 50);
  const rate = 1000;
  const seconds = 5;
  await createNamespace(gws[0]!, ns);
  await waitFor(
    `namespace ${ns}`,
    async () => (await call(`${gws[1]!.url}/api/v1/namespaces/${ns}`, 'GET')).status === 200,
    { timeoutMs: 10_000 }
  );
  const list = JSON.parse(
    await mustCall(`${gws[0]!.url}/api/v1/namespaces/${ns}/configmaps`, 'GET')
  ) as { metadata: { resourceVersion: string } };
  const rv = list.metadata.resourceVersion;
  const urls = gws.flatMap((g) =>
    Array.from(
      { length: perGateway },
      () => `${g.url}/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${rv}`
    )
  );
  console.log(`[4] ${label}: opening ${urls.length} watches at rv ${rv} (on a worker thread)...`);
  const clients = await startWatchClients(urls, client.tls);

  // Where the time goes: a raw NATS subscriber on the type's subject sees the publisher's message.
  const tap = await natsConnect({ servers: natsUrl });
  const natsTapLat: number[] = [];
  tap.subscribe('orch.watch.core.configmaps', {
    callback: (_err, msg) => {
      const m = sentStampRe.exec(new TextDecoder().decode(msg.data));
      if (m) natsTapLat.push(wallClock() - Number(m[1]));
    },
  });
  await tap.flush();
  // And a raw etcd watch on the same prefix: when etcd delivers the change.
  const etcdTapLat: number[] = [];
  const committedAt = new Map<string, number>();
  const etcdTap = await etcd
    .watch()
    .prefix(`/registry/core/configmaps/${ns}/`)
    .withPreviousKV()
    .create();
  etcdTap.on('put', (kv) => {
    const m = sentStampRe.exec(kv.value.toString());
    if (!m) return;
    const now = wallClock();
    committedAt.set(m[1]!, now);
    etcdTapLat.push(now - Number(m[1]));
  });
  const createLat: number[] = [];
  console.log(`[4] ${label}: writing ${rate}/s for ${seconds} s...`);
  const write = async (g: Gateway, name: string): Promise<{ status: number; text: string }> => {
    const annotations = { 'bench.orch.io/sent': wallClock().toFixed(3) };
    if (via === 'gateway') {
      return call(`${g.url}/api/v1/namespaces/${ns}/configmaps`, 'POST', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, annotations },
        data: { v: 'z'.repeat(128) },
      });
    }
    const key = Buffer.from(`/registry/core/configmaps/${ns}/${name}`);
    const metadata = {
      name,
      namespace: ns,
      uid: randomUUID(),
      creationTimestamp: now(),
      annotations,
    };
    const value = Buffer.from(
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata,
        data: { v: 'z'.repeat(128) },
      })
    );
    const res = await etcd.kv.txn({
      compare: [{ key, target: 'Version', result: 'Equal', version: 0 }],
      success: [{ request_put: { key, value } }],
      failure: [],
    });
    return res.succeeded ? { status: 201, text: '' } : { status: 409, text: 'exists' };
  };
  let sent = 0;
  let failed = 0;
  let firstError: string | undefined;
  const inflight = new Set<Promise<void>>();
  const countCpu = startCpuCount(ctx.processes);
  const t0 = performance.now();
  const t0Wall = wallClock();
  const total = rate * seconds;
  let i = 0;
  let skipped = 0;
  const maxInflight = 64;
  while (i + skipped < total && performance.now() - t0 < seconds * 1000) {
    const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate));
    // Closed loop capped at maxInflight: a write that cannot start on time is skipped rather than
    // queued, so the send time stamped in the object is when the request really leaves.
    if (i + skipped < due && inflight.size >= maxInflight) skipped += due - (i + skipped);
    while (i + skipped < due && inflight.size < maxInflight) {
      const g = gws[i % gws.length]!;
      const name = `w-${i}`;
      i++;
      const started = performance.now();
      const p = (async () => {
        const r = await write(g, name);
        if (r.status === 201) {
          sent++;
          createLat.push(performance.now() - started);
        } else {
          failed++;
          firstError ??= `${r.status} ${r.text.slice(0, 200)}`;
        }
      })().catch((err: unknown) => {
        failed++;
        firstError ??= String(err);
      });
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
    }
    await sleep(2);
  }
  await Promise.all(inflight);
  const writeSeconds = (performance.now() - t0) / 1000;
  // Let the stragglers arrive.
  const deadline = performance.now() + 10_000;
  while (performance.now() < deadline && clients.minReceived() < sent) await sleep(50);
  const perEvent = countCpu(sent);
  const perDelivery = Object.fromEntries(
    Object.entries(perEvent).map(([name, us]) => [name, us / urls.length])
  );
  const what = via === 'gateway' ? 'create and its event' : 'event (write straight to etcd)';
  ctx.report.cpu.push({ operation: `watch: ${what}, ${urls.length} watchers`, us: perEvent });
  ctx.report.cpu.push({ operation: `watch: ${what}, per watcher`, us: perDelivery });
  const result = await clients.stop();
  await tap.close();
  await etcdTap.cancel();
  etcdTapLat.sort((a, b) => a - b);
  notes.push(
    `${label}: breakdown: send → raw etcd watch event p50 ${f(pct(etcdTapLat, 0.5), 0)} ms p99 ${f(pct(etcdTapLat, 0.99), 0)} ms (${etcdTapLat.length} seen)`
  );
  createLat.sort((a, b) => a - b);
  natsTapLat.sort((a, b) => a - b);
  notes.push(
    `${label}: breakdown: write round trip p50 ${f(pct(createLat, 0.5), 0)} ms p99 ${f(pct(createLat, 0.99), 0)} ms; send → publisher's NATS message p50 ${f(pct(natsTapLat, 0.5), 0)} ms p99 ${f(pct(natsTapLat, 0.99), 0)} ms (${natsTapLat.length} seen)`
  );

  const events = result.events.flat();
  const sendToClient = events.map(([stamp, at]) => at - Number(stamp)).sort((a, b) => a - b);
  // Commit → client: from when a raw etcd watch in this process saw the change committed.
  const all = events
    .map(([stamp, at]) => at - (committedAt.get(stamp) ?? NaN))
    .filter((x) => Number.isFinite(x))
    .sort((a, b) => a - b);
  // Latency by second of the write phase: a backlog grows, a fixed cost stays flat.
  const bySecond: number[][] = [];
  for (const [stamp, at] of events)
    (bySecond[Math.max(0, Math.floor((Number(stamp) - t0Wall) / 1000))] ??= []).push(
      at - Number(stamp)
    );
  notes.push(
    `${label}: p50 latency ms by second of writing: ` +
      bySecond
        .map((b) =>
          f(
            pct(
              b.sort((x, y) => x - y),
              0.5
            ),
            0
          )
        )
        .join(', ')
  );
  const complete = result.received.filter((n) => n === sent).length;
  const minRecv = Math.min(...result.received);
  if (result.errors.length)
    notes.push(
      `${label}: ${result.errors.length} watch streams failed, first: ${result.errors[0]}`
    );

  // Baseline: NATS publish → subscribe for as many subscribers on one subject at the same rate.
  console.log(
    `[4] ${label}, baseline: NATS, ${urls.length} subscribers, ${rate}/s for ${seconds} s...`
  );
  const { latencies: natsLat, received: natsRecv } = await natsFanOut(
    natsUrl,
    urls.length,
    rate,
    seconds
  );

  const p99 = pct(all, 0.99);
  rows.push({
    metric: `${label}: send→client p50 ms`,
    orch: f(pct(sendToClient, 0.5), 1),
    baseline: '-',
    ratio: '-',
    target: '-',
    pass: undefined,
  });
  rows.push({
    metric: `${label}: send→client p99 ms`,
    orch: f(pct(sendToClient, 0.99), 1),
    baseline: '-',
    ratio: '-',
    target: '-',
    pass: undefined,
  });
  rows.push({
    metric: `${label}: commit→client p50 ms (${urls.length} watchers)`,
    orch: f(pct(all, 0.5), 1),
    baseline: f(pct(natsLat, 0.5), 2) + ' (NATS)',
    ratio: f(pct(all, 0.5) / pct(natsLat, 0.5), 1),
    target: '-',
    pass: undefined,
  });
  rows.push({
    metric: `${label}: commit→client p99 ms (${urls.length} watchers)`,
    orch: f(p99, 1),
    baseline: f(pct(natsLat, 0.99), 2) + ' (NATS)',
    ratio: f(p99 / pct(natsLat, 0.99), 1),
    target: 'p99 <= 100 ms',
    pass: p99 <= 100,
  });
  rows.push({
    metric: `${label}: watchers with every event`,
    orch: `${complete}/${urls.length} (min ${minRecv}/${sent})`,
    baseline: `${natsRecv}/${total * urls.length} msgs`,
    ratio: '-',
    target: 'all',
    pass: complete === urls.length,
  });
  rows.push({
    metric: `${label}: write rate reached /s`,
    orch: f(sent / writeSeconds, 0),
    baseline: f(rate, 0) + ' (asked)',
    ratio: f(sent / writeSeconds / rate, 2),
    target: '-',
    pass: undefined,
  });
  if (skipped)
    notes.push(
      `${label}: capped at ${maxInflight} in flight; ${skipped} of ${total} scheduled writes were skipped because the writes could not keep up with ${rate}/s`
    );
  if (failed) notes.push(`${label}: ${failed} failed, first: ${firstError}`);
  notes.push(
    `${label}: commit→client is the event's arrival at a watch client (a worker thread) minus when a raw etcd watch in the bench saw the commit; send→client adds the write's way to etcd; the clients parsed ~${f((sent * urls.length) / writeSeconds / 1000, 0)}k events/s`
  );
}
