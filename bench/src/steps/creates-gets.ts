// creates+gets: POST through both gateways beside raw etcd transactions (64 in flight), then GET
// of what was created beside linearizable etcd ranges (16 in flight), with the CPU every
// process spent per operation, each run after 2 s of untimed warm-up (cpu.ts, warmedCpuPerOp). The
// GETs are consistent reads (no resourceVersion): the gateways answer them from their watch
// caches after a revision read (the publisher's, over NATS) that the reads of one turn share.
// The CPU every process spends with no load is measured first, and each figure is also given
// net of that background's share (its idle rate over the run, divided by the run's operations).
// Beside the CPU, each process's system calls per create and per GET.
import { sampleSum } from '../prom-text.js';
import { idleCpu, netOfIdle, warmedCpuPerOp } from '../cpu.js';
import type { CpuByProcess } from '../cpu.js';
import { cpuRow, f } from '../report.js';
import { pct } from '../stats.js';
import type { BenchContext, BenchStep } from '../step.js';

const kib = 'x'.repeat(1024);

export const createsGets: BenchStep = {
  name: 'creates+gets',
  async run(ctx) {
    console.log('[0] idle: CPU of every process with no load (3 s)...');
    const idle = await idleCpu(ctx.processes);
    ctx.report.cpu.push({ operation: 'idle, per second', us: idle });
    const names = await benchCreates(ctx, idle);
    await benchGets(ctx, names, idle);
  },
};

async function benchCreates(ctx: BenchContext, idle: CpuByProcess): Promise<string[]> {
  const { gateways: gws, etcd, client, processes } = ctx;
  const { rows, notes } = ctx.report;
  console.log('[1] creates: raw etcd txn (64 in flight, 8 s after 2 s of warm-up)...');
  const runId = Date.now().toString(36);
  const rawCreate = async (i: number): Promise<void> => {
    const key = Buffer.from(`/bench-raw/creates/${runId}-${i}`);
    const res = await etcd.kv.txn({
      compare: [{ key, target: 'Version', result: 'Equal', version: 0 }],
      success: [{ request_put: { key, value: Buffer.from(kib) } }],
      failure: [],
    });
    if (!res.succeeded) throw new Error('txn did not succeed');
  };
  const { result: raw, perOp: rawCpu, us: rawUs } = await warmedCpuPerOp(processes, 64, rawCreate);
  console.log(
    '[1] creates: gateway POST (64 in flight over both gateways, 8 s after 2 s of warm-up)...'
  );
  const names: string[] = [];
  const gwCreate = async (i: number): Promise<void> => {
    const name = `c-${runId}-${i}`;
    const g = gws[i % gws.length]!;
    const r = await client.call(`${g.url}/api/v1/namespaces/default/configmaps`, 'POST', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name },
      data: { v: kib },
    });
    if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text.slice(0, 200)}`);
    names.push(name);
  };
  const {
    result: gw,
    perOp: gwCpu,
    us: gwUs,
    syscallsPerOp,
  } = await warmedCpuPerOp(processes, 64, gwCreate, 'create (POST ConfigMap)');
  notes.push(`creates, CPU µs per create: raw etcd txn: ${rawCpu}; gateway POST: ${gwCpu}`);
  notes.push(`creates, system calls per create (read/write) of each process: ${syscallsPerOp}`);
  ctx.report.cpu.push({ operation: 'create, raw etcd txn', us: rawUs });
  ctx.report.cpu.push({ operation: 'create (POST ConfigMap 1 KiB)', us: gwUs });
  const netCreate = netOfIdle(gwUs, idle, gw.seconds, gw.ok);
  ctx.report.cpu.push({ operation: 'create, net of idle', us: netCreate });
  rows.push(cpuRow('CPU µs per create, orch processes', gwUs, rawUs, 'etcd txn', 3000));
  const gwRate = gw.ok / gw.seconds;
  const rawRate = raw.ok / raw.seconds;
  const ratio = gwRate / rawRate;
  rows.push({
    metric: 'creates/s (64 in flight, 1 KiB)',
    orch: f(gwRate, 0),
    baseline: f(rawRate, 0) + ' (etcd txn)',
    ratio: f(ratio, 2),
    target: 'ratio >= 0.25',
    pass: ratio >= 0.25,
  });
  rows.push({
    metric: 'create p50/p99 ms',
    orch: `${f(pct(gw.latencies, 0.5))}/${f(pct(gw.latencies, 0.99))}`,
    baseline: `${f(pct(raw.latencies, 0.5))}/${f(pct(raw.latencies, 0.99))}`,
    ratio: f(pct(gw.latencies, 0.99) / pct(raw.latencies, 0.99), 2),
    target: '-',
    pass: undefined,
  });
  if (gw.errors) notes.push(`gateway creates: ${gw.errors} errors, first: ${gw.firstError}`);
  if (raw.errors) notes.push(`raw creates: ${raw.errors} errors, first: ${raw.firstError}`);
  return names;
}

/** Each gateway's revision reads and consistent reads from its caches so far (its /metrics). */
async function revisionReads(ctx: BenchContext): Promise<[number, number][]> {
  return Promise.all(
    ctx.gateways.map(async (g) => {
      const text = await ctx.client.mustCall(`${g.url}/metrics`, 'GET');
      return [
        sampleSum(text, 'orch_gateway_watch_cache_revision_reads_total') ?? 0,
        sampleSum(text, 'orch_gateway_watch_cache_consistent_read_total') ?? 0,
      ] as [number, number];
    })
  );
}

async function benchGets(ctx: BenchContext, names: string[], idle: CpuByProcess): Promise<void> {
  const { gateways: gws, etcd, client, processes } = ctx;
  const { rows, notes } = ctx.report;
  const sample = names.slice(0, 1000);
  if (sample.length === 0) throw new Error('no configmaps were created: cannot benchmark GET');
  console.log('[2] gets: raw etcd linearizable range (16 in flight, 8 s after 2 s of warm-up)...');
  const rawGet = async (i: number): Promise<void> => {
    const res = await etcd.kv.range({
      key: Buffer.from(`/registry/core/configmaps/default/${sample[i % sample.length]}`),
    });
    if (res.kvs.length !== 1) throw new Error('raw get: not found');
  };
  const { result: raw, perOp: rawCpu, us: rawUs } = await warmedCpuPerOp(processes, 16, rawGet);
  console.log(
    '[2] gets: gateway GET (16 in flight over both gateways, 8 s after 2 s of warm-up)...'
  );
  // The i-th GET of a sampled ConfigMap, through the gateways in turn.
  const getting =
    (query: string) =>
    async (i: number): Promise<void> => {
      const g = gws[i % gws.length]!;
      const r = await client.call(
        `${g.url}/api/v1/namespaces/default/configmaps/${sample[i % sample.length]}${query}`,
        'GET'
      );
      if (r.status !== 200) throw new Error(`get: ${r.status} ${r.text.slice(0, 200)}`);
    };
  const readsBefore = await revisionReads(ctx);
  const {
    result: gw,
    perOp: gwCpu,
    us: gwUs,
    syscallsPerOp: getCalls,
  } = await warmedCpuPerOp(processes, 16, getting(''), 'consistent GET');
  const reads = (await revisionReads(ctx)).map(([rev, consistent], i): [number, number] => [
    rev - readsBefore[i]![0],
    consistent - readsBefore[i]![1],
  ]);
  notes.push(`gets, CPU µs per get: raw etcd range: ${rawCpu}; gateway GET: ${gwCpu}`);
  notes.push(`gets, system calls per consistent GET (read/write) of each process: ${getCalls}`);
  notes.push(
    `gets: the gateways read the revision (the publisher's, or storage's) ${reads.map(([rev, consistent]) => `${rev} times for ${consistent} consistent reads (${f(rev / consistent, 2)} per read)`).join(', ')}, warm-up included`
  );
  ctx.report.cpu.push({ operation: 'GET, raw etcd range', us: rawUs });
  ctx.report.cpu.push({ operation: 'consistent GET (ConfigMap)', us: gwUs });
  ctx.report.cpu.push({
    operation: 'consistent GET, net of idle',
    us: netOfIdle(gwUs, idle, gw.seconds, gw.ok),
  });
  rows.push(cpuRow('CPU µs per consistent GET, orch processes', gwUs, rawUs, 'etcd range', 600));
  const gp99 = pct(gw.latencies, 0.99);
  const rp99 = pct(raw.latencies, 0.99);
  rows.push({
    metric: 'GET p50 ms (16 in flight)',
    orch: f(pct(gw.latencies, 0.5), 2),
    baseline: f(pct(raw.latencies, 0.5), 2) + ' (etcd range)',
    ratio: f(pct(gw.latencies, 0.5) / pct(raw.latencies, 0.5), 2),
    target: '-',
    pass: undefined,
  });
  rows.push({
    metric: 'GET p99 ms (16 in flight)',
    orch: f(gp99, 2),
    baseline: f(rp99, 2) + ' (etcd range)',
    ratio: f(gp99 / rp99, 2),
    target: 'p99 <= 1.5 x raw p99',
    pass: gp99 <= 1.5 * rp99,
  });
  // GETs per second beside the raw ranges'; only the consistent GETs have a target.
  const rateRow = (metric: string, run: typeof gw, target?: number): (typeof rows)[number] => {
    const ratio = run.ok / run.seconds / (raw.ok / raw.seconds);
    return {
      metric,
      orch: f(run.ok / run.seconds, 0),
      baseline: f(raw.ok / raw.seconds, 0),
      ratio: f(ratio, 2),
      target: target === undefined ? '-' : `ratio >= ${target}`,
      pass: target === undefined ? undefined : ratio >= target,
    };
  };
  rows.push(rateRow('GET/s (16 in flight)', gw, 0.8));
  if (gw.errors) notes.push(`gateway gets: ${gw.errors} errors, first: ${gw.firstError}`);

  // The same GETs at resourceVersion=0, answered from the cache with no revision read: what a
  // consistent GET costs beyond this is the price of reading the current revision.
  console.log('[2] gets: gateway GET at resourceVersion=0 (16 in flight, the cache alone)...');
  const {
    result: any,
    perOp: anyCpu,
    us: anyUs,
  } = await warmedCpuPerOp(
    processes,
    16,
    getting('?resourceVersion=0'),
    'GET at resourceVersion=0'
  );
  notes.push(`gets at resourceVersion=0, CPU µs per get: ${anyCpu}`);
  ctx.report.cpu.push({ operation: 'GET resourceVersion=0 (cache)', us: anyUs });
  rows.push(rateRow('GET/s at resourceVersion=0 (16 in flight)', any));
  if (any.errors) notes.push(`gateway gets at 0: ${any.errors} errors, first: ${any.firstError}`);
}
