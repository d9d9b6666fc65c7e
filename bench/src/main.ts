// Load generators for the orch control plane: starts etcd, NATS, one storage, the authorizer and
// two RBAC gateways (plus an AlwaysAllow gateway for the authorization-cost figure),
// then measures each figure beside a raw baseline taken in the same run (see printTable).
// A benchmark, not a test: missed targets are printed as MISSED and the exit code stays 0.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';

import type { EtcdServer, NatsServer, ThrowawayPki } from '@orch/testing';
import { freePort, registerProcess, startEtcd, startNats, throwawayPki, userKubeconfig, waitFor } from '@orch/testing';
import { Etcd3 } from 'etcd3';
import { connect as natsConnect } from 'nats';
import { Agent, request } from 'undici';
import { decodeEnvelope } from '@orch/apimachinery/protobuf';
import { realisticPod } from '@orch/apimachinery/schema-model';
import { summarizeProfiles } from './profile-summary.js';
import { sentStampRe, wallClock } from './watch-clients.js';
import type { WatchClientsInput, WatchClientsMessage, WatchClientsResult } from './watch-clients.js';

const repoRoot = new URL('../../', import.meta.url).pathname;

// ---------------------------------------------------------------- processes

interface Proc {
  name: string;
  child: ChildProcess;
}

const procs: Proc[] = [];
let etcdPid = -1;
/** BENCH_CPU_PROF=<dir>: storage and the RBAC gateways run with --cpu-prof, are stopped with SIGTERM so the profiles are written, and each profile is summarised (busy time by layer, heaviest functions) in the notes. */
const cpuProfDir = process.env['BENCH_CPU_PROF'];
/** Comma-separated step names to run (creates+gets, list, watch, idle watch memory); all when unset. */
const onlySteps = process.env['BENCH_ONLY']?.split(',').map((s) => s.trim()).filter(Boolean);

async function stopGracefully(): Promise<void> {
  await Promise.all(procs.filter((p) => exitedReason(p) === undefined).map(async (p) => {
    const exited = new Promise((resolve) => p.child.once('exit', resolve));
    p.child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
  }));
}

async function startProc(name: string, script: string, args: string[], logDir: string): Promise<Proc> {
  const log = createWriteStream(join(logDir, `${name}.log`));
  const nodeFlags = [...args.filter((a) => a.startsWith('--cpu-prof')), ...(process.env['BENCH_NODE_FLAGS']?.split(' ').filter(Boolean) ?? [])];
  const child = spawn(process.execPath, [...nodeFlags, join(repoRoot, script), ...args.filter((a) => !a.startsWith('--cpu-prof'))], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  registerProcess(child);
  const p = { name, child };
  procs.push(p);
  return p;
}

function killAll(): void {
  for (const p of procs) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  }
}

function exitedReason(p: Proc): string | undefined {
  const { exitCode, signalCode } = p.child;
  return exitCode !== null || signalCode !== null ? `${p.name} exited (${exitCode ?? signalCode})` : undefined;
}

// ---------------------------------------------------------------- stats

function pct(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

interface RunResult {
  ok: number;
  errors: number;
  seconds: number;
  latencies: number[];
  firstError?: string;
}

/** Runs `op` with `concurrency` loops in flight for `durationMs`; latencies in ms, sorted. */
async function runFor(durationMs: number, concurrency: number, op: (i: number) => Promise<void>): Promise<RunResult> {
  const latencies: number[] = [];
  let ok = 0;
  let errors = 0;
  let firstError: string | undefined;
  let seq = 0;
  const start = performance.now();
  const deadline = start + durationMs;
  const loop = async () => {
    while (performance.now() < deadline) {
      const i = seq++;
      const t0 = performance.now();
      try {
        await op(i);
        latencies.push(performance.now() - t0);
        ok++;
      } catch (err) {
        errors++;
        firstError ??= String(err);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { ok, errors, seconds, latencies, firstError };
}

// ---------------------------------------------------------------- http

interface Gateway {
  url: string;
  proc: Proc;
}

let agent: Agent;
let watchAgent: Agent;
/** The admin's TLS material, for clients on other threads. */
let tlsFiles: WatchClientsInput['tls'];

async function call(url: string, method: string, body?: unknown): Promise<{ status: number; text: string }> {
  const res = await request(url, {
    method: method as 'GET',
    dispatcher: agent,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, text: await res.body.text() };
}

async function mustCall(url: string, method: string, body?: unknown, okStatus = [200, 201]): Promise<string> {
  const r = await call(url, method, body);
  if (!okStatus.includes(r.status)) throw new Error(`${method} ${url}: ${r.status} ${r.text.slice(0, 300)}`);
  return r.text;
}

async function createNamespace(gw: Gateway, name: string): Promise<void> {
  await mustCall(`${gw.url}/api/v1/namespaces`, 'POST', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, [200, 201, 409]);
}

const kib = 'x'.repeat(1024);

// ---------------------------------------------------------------- table

interface Row {
  metric: string;
  orch: string;
  baseline: string;
  ratio: string;
  target: string;
  pass: boolean | undefined;
}
const rows: Row[] = [];
const notes: string[] = [];

function f(n: number, digits = 1): string {
  return Number.isFinite(n) ? n.toFixed(digits) : String(n);
}

function printTable(): void {
  const head: Row = { metric: 'metric', orch: 'orch', baseline: 'baseline', ratio: 'ratio', target: 'target', pass: undefined };
  const cells = (r: Row) => [r.metric, r.orch, r.baseline, r.ratio, r.target, r === head ? 'result' : r.pass === undefined ? 'info' : r.pass ? 'pass' : 'MISSED'];
  const all = [head, ...rows].map(cells);
  const widths = all[0]!.map((_, c) => Math.max(...all.map((r) => r[c]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  console.log('\n' + line(all[0]!));
  console.log(widths.map((w) => '-'.repeat(w)).join('-+-'));
  for (const r of all.slice(1)) console.log(line(r));
  const missed = rows.filter((r) => r.pass === false);
  console.log('');
  for (const r of missed) console.log(`MISSED: ${r.metric}: orch ${r.orch}, target ${r.target}`);
  if (missed.length === 0) console.log('all targets met');
  for (const n of notes) console.log(`note: ${n}`);
}

// ---------------------------------------------------------------- benchmarks

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

/** Who used the CPU during fn: µs of CPU per operation for every process of the run. */
async function cpuPerOp<T extends { ok: number }>(fn: () => Promise<T>): Promise<{ result: T; perOp: string }> {
  const who: [string, number][] = [['bench', process.pid], ['etcd', etcdPid], ...procs.map((p): [string, number] => [p.name, p.child.pid ?? -1])];
  const before = who.map(([, pid]) => cpuSeconds(pid));
  const result = await fn();
  const us = who.map(([, pid], k) => ((cpuSeconds(pid) - before[k]!) * 1e6) / Math.max(1, result.ok));
  const total = us.reduce((a, b) => a + b, 0);
  const per = who.map(([name], k) => `${name} ${f(us[k]!, 0)}`);
  // Every process shares the machine's cores: this many operations per second is the most the
  // CPU allows at this cost, whatever the concurrency.
  return { result, perOp: `${per.join(', ')}; all processes ${f(total, 0)} µs, a ceiling of ${f((availableParallelism() * 1e6) / total, 0)}/s on ${availableParallelism()} cores` };
}

async function benchCreates(gws: Gateway[], etcd: Etcd3): Promise<string[]> {
  console.log('[1] creates: raw etcd txn (64 in flight, 8 s)...');
  const runId = Date.now().toString(36);
  const { result: raw, perOp: rawCpu } = await cpuPerOp(() => runFor(8000, 64, async (i) => {
    const key = Buffer.from(`/bench-raw/creates/${runId}-${i}`);
    const res = await etcd.kv.txn({
      compare: [{ key, target: 'Version', result: 'Equal', version: 0 }],
      success: [{ request_put: { key, value: Buffer.from(kib) } }],
      failure: [],
    });
    if (!res.succeeded) throw new Error('txn did not succeed');
  }));
  console.log('[1] creates: gateway POST (64 in flight over both gateways, 8 s)...');
  const names: string[] = [];
  const { result: gw, perOp: gwCpu } = await cpuPerOp(() => runFor(8000, 64, async (i) => {
    const name = `c-${runId}-${i}`;
    const g = gws[i % gws.length]!;
    const r = await call(`${g.url}/api/v1/namespaces/default/configmaps`, 'POST', {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: kib },
    });
    if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text.slice(0, 200)}`);
    names.push(name);
  }));
  notes.push(`creates, CPU µs per create: raw etcd txn: ${rawCpu}; gateway POST: ${gwCpu}`);
  const gwRate = gw.ok / gw.seconds;
  const rawRate = raw.ok / raw.seconds;
  const ratio = gwRate / rawRate;
  rows.push({ metric: 'creates/s (64 in flight, 1 KiB)', orch: f(gwRate, 0), baseline: f(rawRate, 0) + ' (etcd txn)', ratio: f(ratio, 2), target: 'ratio >= 0.35', pass: ratio >= 0.35 });
  rows.push({ metric: 'create p50/p99 ms', orch: `${f(pct(gw.latencies, 0.5))}/${f(pct(gw.latencies, 0.99))}`, baseline: `${f(pct(raw.latencies, 0.5))}/${f(pct(raw.latencies, 0.99))}`, ratio: f(pct(gw.latencies, 0.99) / pct(raw.latencies, 0.99), 2), target: '-', pass: undefined });
  if (gw.errors) notes.push(`gateway creates: ${gw.errors} errors, first: ${gw.firstError}`);
  if (raw.errors) notes.push(`raw creates: ${raw.errors} errors, first: ${raw.firstError}`);
  return names;
}

async function benchGets(gws: Gateway[], etcd: Etcd3, names: string[]): Promise<void> {
  const sample = names.slice(0, 1000);
  if (sample.length === 0) throw new Error('no configmaps were created: cannot benchmark GET');
  console.log('[2] gets: raw etcd linearizable range (16 in flight, 8 s)...');
  const { result: raw, perOp: rawCpu } = await cpuPerOp(() => runFor(8000, 16, async (i) => {
    const res = await etcd.kv.range({ key: Buffer.from(`/registry/core/configmaps/default/${sample[i % sample.length]}`) });
    if (res.kvs.length !== 1) throw new Error('raw get: not found');
  }));
  console.log('[2] gets: gateway GET (16 in flight over both gateways, 8 s)...');
  const { result: gw, perOp: gwCpu } = await cpuPerOp(() => runFor(8000, 16, async (i) => {
    const g = gws[i % gws.length]!;
    const r = await call(`${g.url}/api/v1/namespaces/default/configmaps/${sample[i % sample.length]}`, 'GET');
    if (r.status !== 200) throw new Error(`get: ${r.status} ${r.text.slice(0, 200)}`);
  }));
  notes.push(`gets, CPU µs per get: raw etcd range: ${rawCpu}; gateway GET: ${gwCpu}`);
  const gp99 = pct(gw.latencies, 0.99);
  const rp99 = pct(raw.latencies, 0.99);
  rows.push({ metric: 'GET p50 ms (16 in flight)', orch: f(pct(gw.latencies, 0.5), 2), baseline: f(pct(raw.latencies, 0.5), 2) + ' (etcd range)', ratio: f(pct(gw.latencies, 0.5) / pct(raw.latencies, 0.5), 2), target: '-', pass: undefined });
  rows.push({ metric: 'GET p99 ms (16 in flight)', orch: f(gp99, 2), baseline: f(rp99, 2) + ' (etcd range)', ratio: f(gp99 / rp99, 2), target: 'p99 <= 15 ms', pass: gp99 <= 15 });
  rows.push({ metric: 'GET/s (16 in flight)', orch: f(gw.ok / gw.seconds, 0), baseline: f(raw.ok / raw.seconds, 0), ratio: f(gw.ok / gw.seconds / (raw.ok / raw.seconds), 2), target: '-', pass: undefined });
  if (gw.errors) notes.push(`gateway gets: ${gw.errors} errors, first: ${gw.firstError}`);
}

// JSON, the binary envelope and Tables side by side: the encode cost on the gateway and the
// decode cost on the client (JSON.parse or decodeEnvelope), for a realistic pod and a list.
async function benchRepresentations(gws: Gateway[]): Promise<void> {
  const ns = 'bench-repr';
  const gw = gws[0]!;
  const n = 500;
  await createNamespace(gw, ns);
  console.log(`[4] representations: creating ${n} realistic pods...`);
  const { metadata, status: _status, ...rest } = realisticPod;
  for (let i = 0; i < n; i += 25) {
    await Promise.all(Array.from({ length: 25 }, (_, j) =>
      mustCall(`${gw.url}/api/v1/namespaces/${ns}/pods`, 'POST', {
        ...rest,
        metadata: { name: `pod-${String(i + j).padStart(4, '0')}`, labels: metadata.labels, annotations: metadata.annotations },
      })
    ));
  }
  const kinds: [string, string, (b: Buffer) => unknown][] = [
    ['JSON', 'application/json', (b) => JSON.parse(b.toString('utf8'))],
    ['binary', 'application/vnd.orch.protobuf', (b) => decodeEnvelope(b)],
    ['Table', 'application/json;as=Table;g=meta.orch.io;v=v1', (b) => JSON.parse(b.toString('utf8'))],
  ];
  const measure = async (path: string, accept: string, decode: (b: Buffer) => unknown, concurrency: number): Promise<{ rate: number; bytes: number; errors: number }> => {
    let bytes = 0;
    const r = await runFor(4000, concurrency, async () => {
      const res = await request(`${gw.url}${path}`, { method: 'GET', dispatcher: agent, headers: { accept } });
      const body = Buffer.from(await res.body.arrayBuffer());
      if (res.statusCode !== 200) throw new Error(`${accept}: ${res.statusCode}`);
      bytes = body.length;
      decode(body);
    });
    return { rate: r.ok / r.seconds, bytes, errors: r.errors };
  };
  for (const [what, path, conc] of [['GET pod', `/api/v1/namespaces/${ns}/pods/pod-0000`, 16], [`list ${n} pods`, `/api/v1/namespaces/${ns}/pods`, 4]] as const) {
    console.log(`[4] representations: ${what} in JSON, binary and Table (4 s each)...`);
    const results = [];
    for (const [name, accept, decode] of kinds) results.push({ name, ...(await measure(path, accept, decode, conc)) });
    const json = results[0]!;
    for (const r of results) {
      rows.push({
        metric: `${what}/s, ${r.name} (${conc} in flight, incl. client decode)`,
        orch: `${f(r.rate, 0)} (${r.bytes} B)`,
        baseline: r === json ? '-' : `${f(json.rate, 0)} (JSON)`,
        ratio: r === json ? '-' : f(r.rate / json.rate, 2),
        target: '-',
        pass: undefined,
      });
      if (r.errors) notes.push(`${what} ${r.name}: ${r.errors} errors`);
    }
  }
}

function prefixEnd(prefix: string): Buffer {
  const buf = Buffer.from(prefix);
  buf[buf.length - 1] = buf[buf.length - 1]! + 1;
  return buf;
}

async function benchList(gws: Gateway[], etcd: Etcd3): Promise<void> {
  const ns = 'bench-list';
  const n = 10_000;
  const gw = gws[0]!;
  console.log(`[3] list: seeding ${n} configmaps through raw etcd...`);
  await createNamespace(gw, ns);
  const prefix = `/registry/core/configmaps/${ns}/`;
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const batches: Promise<unknown>[] = [];
  for (let b = 0; b < n / 100; b++) {
    const puts = [];
    for (let j = 0; j < 100; j++) {
      const name = `cm-${String(b * 100 + j).padStart(5, '0')}`;
      const value = JSON.stringify({
        apiVersion: 'v1', kind: 'ConfigMap',
        metadata: { name, namespace: ns, uid: randomUUID(), creationTimestamp: now },
        data: { v: 'y'.repeat(256) },
      });
      puts.push({ request_put: { key: Buffer.from(prefix + name), value: Buffer.from(value) } });
    }
    batches.push(etcd.kv.txn({ compare: [], success: puts, failure: [] }));
    if (batches.length >= 16) await Promise.all(batches.splice(0));
  }
  await Promise.all(batches);

  const rawList = async (): Promise<number> => {
    let count = 0;
    let start = Buffer.from(prefix);
    const end = prefixEnd(prefix);
    let revision: string | undefined;
    for (;;) {
      const res = await etcd.kv.range({ key: start, range_end: end, limit: 500, ...(revision ? { revision } : {}) });
      revision ??= res.header.revision;
      count += res.kvs.length;
      if (!res.more || res.kvs.length === 0) break;
      start = Buffer.concat([res.kvs[res.kvs.length - 1]!.key, Buffer.from([0])]);
    }
    return count;
  };
  const gwList = async (): Promise<number> => {
    let count = 0;
    let cont = '';
    for (;;) {
      const url = `${gw.url}/api/v1/namespaces/${ns}/configmaps?limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`;
      const body = JSON.parse(await mustCall(url, 'GET')) as { items: unknown[]; metadata: { continue?: string } };
      count += body.items.length;
      cont = body.metadata.continue ?? '';
      if (!cont) break;
    }
    return count;
  };
  const timeIt = async (fn: () => Promise<number>): Promise<{ ms: number; count: number }> => {
    await fn(); // warm-up
    const runs: number[] = [];
    let count = 0;
    for (let k = 0; k < 3; k++) {
      const t0 = performance.now();
      count = await fn();
      runs.push(performance.now() - t0);
    }
    runs.sort((a, b) => a - b);
    return { ms: runs[1]!, count };
  };
  console.log('[3] list: paging raw etcd and the gateway (median of 3)...');
  const raw = await timeIt(rawList);
  const g = await timeIt(gwList);
  const ratio = g.ms / raw.ms;
  rows.push({ metric: `list ${n} in pages of 500, ms`, orch: `${f(g.ms, 0)} (${g.count} items)`, baseline: `${f(raw.ms, 0)} (${raw.count} keys)`, ratio: f(ratio, 2) + 'x', target: '<= 3x raw', pass: ratio <= 3 && g.count === n });
}

interface Watcher {
  abort: AbortController;
  done: Promise<void>;
}

/** Opens a watch that is only held open (its events are read and dropped); resolves on status 200. */
async function openWatch(url: string): Promise<Watcher> {
  const abort = new AbortController();
  const res = await request(url, { method: 'GET', dispatcher: watchAgent, signal: abort.signal });
  if (res.statusCode !== 200) {
    const text = await res.body.text();
    throw new Error(`watch ${url}: ${res.statusCode} ${text.slice(0, 200)}`);
  }
  const done = (async () => {
    try {
      for await (const _chunk of res.body) {
        // held open; nothing to read
      }
    } catch {
      // aborted
    }
  })();
  return { abort, done };
}

/**
 * 100 watchers over the two gateways while changes are written at 1000/s: `via` 'gateway' sends
 * the creates through the gateways (on this machine they cannot take 1000/s, so the rate reached
 * is printed); 'etcd' writes the same objects straight into etcd at the storage keys, which
 * offers the watch path (publisher → NATS → gateways → clients) the full rate.
 */
async function benchWatch(gws: Gateway[], natsUrl: string, etcd: Etcd3, via: 'gateway' | 'etcd'): Promise<void> {
  const ns = `bench-watch-${via}`;
  const label = `watch, writes via ${via}`;
  const perGateway = Number(process.env['BENCH_WATCHERS_PER_GATEWAY'] ?? 50);
  const rate = 1000;
  const seconds = 5;
  await createNamespace(gws[0]!, ns);
  await waitFor(`namespace ${ns}`, async () => (await call(`${gws[1]!.url}/api/v1/namespaces/${ns}`, 'GET')).status === 200, { timeoutMs: 10_000 });
  const list = JSON.parse(await mustCall(`${gws[0]!.url}/api/v1/namespaces/${ns}/configmaps`, 'GET')) as { metadata: { resourceVersion: string } };
  const rv = list.metadata.resourceVersion;
  const urls = gws.flatMap((g) => Array.from({ length: perGateway }, () => `${g.url}/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${rv}`));
  console.log(`[4] ${label}: opening ${urls.length} watches at rv ${rv} (on a worker thread)...`);
  const clients = await startWatchClients(urls);

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
  const etcdTap = await etcd.watch().prefix(`/registry/core/configmaps/${ns}/`).withPreviousKV().create();
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
      return call(`${g.url}/api/v1/namespaces/${ns}/configmaps`, 'POST', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, annotations }, data: { v: 'z'.repeat(128) } });
    }
    const key = Buffer.from(`/registry/core/configmaps/${ns}/${name}`);
    const metadata = { name, namespace: ns, uid: randomUUID(), creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), annotations };
    const value = Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { v: 'z'.repeat(128) } }));
    const res = await etcd.kv.txn({ compare: [{ key, target: 'Version', result: 'Equal', version: 0 }], success: [{ request_put: { key, value } }], failure: [] });
    return res.succeeded ? { status: 201, text: '' } : { status: 409, text: 'exists' };
  };
  let sent = 0;
  let failed = 0;
  let firstError: string | undefined;
  const inflight = new Set<Promise<void>>();
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
  const result = await clients.stop();
  await tap.close();
  await etcdTap.cancel();
  etcdTapLat.sort((a, b) => a - b);
  notes.push(`${label}: breakdown: send → raw etcd watch event p50 ${f(pct(etcdTapLat, 0.5), 0)} ms p99 ${f(pct(etcdTapLat, 0.99), 0)} ms (${etcdTapLat.length} seen)`);
  createLat.sort((a, b) => a - b);
  natsTapLat.sort((a, b) => a - b);
  notes.push(`${label}: breakdown: write round trip p50 ${f(pct(createLat, 0.5), 0)} ms p99 ${f(pct(createLat, 0.99), 0)} ms; send → publisher's NATS message p50 ${f(pct(natsTapLat, 0.5), 0)} ms p99 ${f(pct(natsTapLat, 0.99), 0)} ms (${natsTapLat.length} seen)`);

  const events = result.events.flat();
  const sendToClient = events.map(([stamp, at]) => at - Number(stamp)).sort((a, b) => a - b);
  // Commit → client: from when a raw etcd watch in this process saw the change committed.
  const all = events
    .map(([stamp, at]) => at - (committedAt.get(stamp) ?? NaN))
    .filter((x) => Number.isFinite(x))
    .sort((a, b) => a - b);
  // Latency by second of the write phase: a backlog grows, a fixed cost stays flat.
  const bySecond: number[][] = [];
  for (const [stamp, at] of events) (bySecond[Math.max(0, Math.floor((Number(stamp) - t0Wall) / 1000))] ??= []).push(at - Number(stamp));
  notes.push(`${label}: p50 latency ms by second of writing: ` + bySecond.map((b) => f(pct(b.sort((x, y) => x - y), 0.5), 0)).join(', '));
  const complete = result.received.filter((n) => n === sent).length;
  const minRecv = Math.min(...result.received);
  if (result.errors.length) notes.push(`${label}: ${result.errors.length} watch streams failed, first: ${result.errors[0]}`);

  // Baseline: NATS publish → subscribe for as many subscribers on one subject at the same rate.
  console.log(`[4] ${label}, baseline: NATS, ${urls.length} subscribers, ${rate}/s for ${seconds} s...`);
  const conns = await Promise.all([natsConnect({ servers: natsUrl }), natsConnect({ servers: natsUrl })]);
  const pub = await natsConnect({ servers: natsUrl });
  const natsLat: number[] = [];
  let natsRecv = 0;
  const subject = 'bench.watch';
  for (let s = 0; s < urls.length; s++) {
    conns[s % conns.length]!.subscribe(subject, {
      callback: (_err, msg) => {
        natsRecv++;
        natsLat.push(performance.now() - Number(new TextDecoder().decode(msg.data).slice(0, 20)));
      },
    });
  }
  await Promise.all(conns.map((c) => c.flush()));
  const padding = 'z'.repeat(600);
  const n0 = performance.now();
  let k = 0;
  while (k < total) {
    const due = Math.min(total, Math.floor(((performance.now() - n0) / 1000) * rate));
    while (k < due) {
      pub.publish(subject, new TextEncoder().encode(performance.now().toFixed(3).padEnd(20) + padding));
      k++;
    }
    await sleep(2);
  }
  await pub.flush();
  const nd = performance.now() + 5000;
  while (performance.now() < nd && natsRecv < total * urls.length) await sleep(20);
  await Promise.all([...conns, pub].map((c) => c.close()));
  natsLat.sort((a, b) => a - b);

  const p99 = pct(all, 0.99);
  rows.push({ metric: `${label}: send→client p50 ms`, orch: f(pct(sendToClient, 0.5), 1), baseline: '-', ratio: '-', target: '-', pass: undefined });
  rows.push({ metric: `${label}: send→client p99 ms`, orch: f(pct(sendToClient, 0.99), 1), baseline: '-', ratio: '-', target: '-', pass: undefined });
  rows.push({ metric: `${label}: commit→client p50 ms (${urls.length} watchers)`, orch: f(pct(all, 0.5), 1), baseline: f(pct(natsLat, 0.5), 2) + ' (NATS)', ratio: f(pct(all, 0.5) / pct(natsLat, 0.5), 1), target: '-', pass: undefined });
  rows.push({ metric: `${label}: commit→client p99 ms (${urls.length} watchers)`, orch: f(p99, 1), baseline: f(pct(natsLat, 0.99), 2) + ' (NATS)', ratio: f(p99 / pct(natsLat, 0.99), 1), target: 'p99 <= 100 ms', pass: p99 <= 100 });
  rows.push({ metric: `${label}: watchers with every event`, orch: `${complete}/${urls.length} (min ${minRecv}/${sent})`, baseline: `${natsRecv}/${total * urls.length} msgs`, ratio: '-', target: 'all', pass: complete === urls.length });
  rows.push({ metric: `${label}: write rate reached /s`, orch: f(sent / writeSeconds, 0), baseline: f(rate, 0) + ' (asked)', ratio: f(sent / writeSeconds / rate, 2), target: '-', pass: undefined });
  if (skipped) notes.push(`${label}: capped at ${maxInflight} in flight; ${skipped} of ${total} scheduled writes were skipped because the writes could not keep up with ${rate}/s`);
  if (failed) notes.push(`${label}: ${failed} failed, first: ${firstError}`);
  notes.push(`${label}: commit→client is the event's arrival at a watch client (a worker thread) minus when a raw etcd watch in the bench saw the commit; send→client adds the write's way to etcd; the clients parsed ~${f((sent * urls.length) / writeSeconds / 1000, 0)}k events/s`);
}

/** The watch clients on a worker thread (watch-clients.ts). */
async function startWatchClients(urls: string[]): Promise<{ minReceived(): number; stop(): Promise<WatchClientsResult> }> {
  const worker = new Worker(new URL('./watch-clients.js', import.meta.url), { workerData: { urls, tls: tlsFiles } satisfies WatchClientsInput });
  let min = 0;
  let resolveResult: (r: WatchClientsResult) => void = () => undefined;
  const result = new Promise<WatchClientsResult>((r) => (resolveResult = r));
  await new Promise<void>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('message', (m: WatchClientsMessage) => {
      if (m.type === 'ready') resolve();
      else if (m.type === 'failed') reject(new Error(m.error));
      else if (m.type === 'progress') min = m.min;
      else resolveResult(m.result);
    });
  });
  return {
    minReceived: () => min,
    async stop() {
      worker.postMessage('stop');
      const r = await result;
      await worker.terminate();
      return r;
    },
  };
}

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

/** A bare Node HTTPS server that holds every request open: the platform's cost of one idle TLS connection. */
const bareHttpsServer = `
const https = require('node:https');
const fs = require('node:fs');
const [cert, key, ca] = process.argv.slice(1).map((f) => fs.readFileSync(f));
const open = [];
const srv = https.createServer({ cert, key, ca, requestCert: true, rejectUnauthorized: false }, (req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
  res.write(' ');
  open.push(res);
});
srv.keepAliveTimeout = 65000;
srv.listen(0, '127.0.0.1', () => console.log(srv.address().port));
`;

/** Opens n watches (batches of 100) and returns the RSS growth of pid per watch after a settle. */
async function idleWatchCost(pid: number, n: number, url: string): Promise<{ perWatch: number; opened: number; before: number; after: number; failed: number; firstError?: string }> {
  const before = rssKb(pid);
  const watchers: Watcher[] = [];
  let failed = 0;
  let firstError: string | undefined;
  for (let b = 0; b < n; b += 100) {
    await Promise.all(Array.from({ length: Math.min(100, n - b) }, async () => {
      try {
        watchers.push(await openWatch(url));
      } catch (err) {
        failed++;
        firstError ??= String(err);
      }
    }));
  }
  await sleep(3000);
  const after = rssKb(pid);
  for (const w of watchers) w.abort.abort();
  await Promise.all(watchers.map((w) => w.done));
  return { perWatch: (after - before) / Math.max(1, watchers.length), opened: watchers.length, before, after, failed, ...(firstError ? { firstError } : {}) };
}

async function benchIdleWatchMemory(gw: Gateway, files: { certFile: string; keyFile: string; caFile: string }): Promise<void> {
  const n = Number(process.env['BENCH_IDLE_WATCHES'] ?? 10_000);
  const ns = 'bench-idle';
  await createNamespace(gw, ns);
  const list = JSON.parse(await mustCall(`${gw.url}/api/v1/namespaces/${ns}/configmaps`, 'GET')) as { metadata: { resourceVersion: string } };
  await sleep(1000);
  console.log(`[5] memory: opening ${n} idle watches on one gateway...`);
  const orch = await idleWatchCost(gw.proc.child.pid!, n, `${gw.url}/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${list.metadata.resourceVersion}`);

  console.log(`[5] memory baseline: ${n} idle requests on a bare Node HTTPS server...`);
  const bare = spawn(process.execPath, ['-e', bareHttpsServer, files.certFile, files.keyFile, files.caFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  registerProcess(bare);
  try {
    const port = await new Promise<number>((resolve) => bare.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
    await sleep(1000);
    const base = await idleWatchCost(bare.pid!, n, `https://127.0.0.1:${port}/idle`);
    rows.push({ metric: `gateway RSS per idle watch KB (n=${orch.opened})`, orch: f(orch.perWatch, 1), baseline: f(base.perWatch, 1) + ' (bare Node HTTPS)', ratio: f(orch.perWatch / base.perWatch, 2), target: '<= 20 KB', pass: orch.perWatch <= 20 });
    notes.push(`idle-watch memory: ${n} watches (BENCH_IDLE_WATCHES), RSS from /proc/<pid>/status after a 3 s settle, no forced GC; gateway ${orch.before} -> ${orch.after} KB, bare HTTPS ${base.before} -> ${base.after} KB. One HTTP/1.1 TLS connection per watch: the bare server shows what Node and OpenSSL cost per connection before any gateway state`);
    if (orch.failed) notes.push(`idle watches: ${orch.failed} failed to open, first: ${orch.firstError}`);
    if (base.failed) notes.push(`bare HTTPS baseline: ${base.failed} failed to open, first: ${base.firstError}`);
  } finally {
    bare.kill('SIGKILL');
  }
}

// ---------------------------------------------------------------- main

/** GET/s through an RBAC gateway (one gRPC Authorize per request) versus an AlwaysAllow one. */
async function benchAuthorization(rbacGw: Gateway, allowGw: Gateway): Promise<void> {
  const name = 'authz-bench';
  await mustCall(`${rbacGw.url}/api/v1/namespaces/default/configmaps`, 'POST', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } }, [201, 409]);
  const run = (g: Gateway) =>
    runFor(3000, 16, async () => {
      const r = await call(`${g.url}/api/v1/namespaces/default/configmaps/${name}`, 'GET');
      if (r.status !== 200) throw new Error(`get: ${r.status} ${r.text.slice(0, 200)}`);
    });
  const merge = (a: RunResult, b: RunResult): RunResult => ({
    ok: a.ok + b.ok,
    errors: a.errors + b.errors,
    seconds: a.seconds + b.seconds,
    latencies: [...a.latencies, ...b.latencies].sort((x, y) => x - y),
    ...(a.firstError ?? b.firstError ? { firstError: a.firstError ?? b.firstError } : {}),
  });
  // Interleaved (allow, RBAC, RBAC, allow) so that load from outside the bench weighs on both alike.
  console.log('[6] authorization: GET through an AlwaysAllow and an RBAC gateway, interleaved (16 in flight, 4 x 3 s)...');
  const a1 = await run(allowGw);
  const r1 = await run(rbacGw);
  const r2 = await run(rbacGw);
  const a2 = await run(allowGw);
  const allow = merge(a1, a2);
  const rbac = merge(r1, r2);
  const rps = (r: RunResult) => r.ok / r.seconds;
  rows.push({ metric: 'GET/s with RBAC (16 in flight)', orch: f(rps(rbac), 0), baseline: f(rps(allow), 0) + ' (AlwaysAllow)', ratio: f(rps(rbac) / rps(allow), 2), target: '-', pass: undefined });
  rows.push({ metric: 'GET p50 ms with RBAC', orch: f(pct(rbac.latencies, 0.5), 2), baseline: f(pct(allow.latencies, 0.5), 2) + ' (AlwaysAllow)', ratio: f(pct(rbac.latencies, 0.5) / pct(allow.latencies, 0.5), 2), target: '-', pass: undefined });
  if (rbac.errors || allow.errors) notes.push(`authorization bench errors: rbac ${rbac.errors} (${rbac.firstError ?? ''}), allow ${allow.errors} (${allow.firstError ?? ''})`);
}

async function main(): Promise<void> {
  const logDir = await mkdtemp(join(tmpdir(), 'orch-bench-'));
  console.log(`logs: ${logDir}`);
  let etcdServer: EtcdServer | undefined;
  let nats: NatsServer | undefined;
  let pki: ThrowawayPki | undefined;
  let etcd: Etcd3 | undefined;
  try {
    [etcdServer, nats, pki] = await Promise.all([startEtcd(), startNats(), throwawayPki()]);
    etcdPid = etcdServer.pid;
    const storagePort = await freePort();
    const st = pki.file('storage');
    const storage = await startProc('storage', 'services/storage/dist/main.js', [
      ...(cpuProfDir ? [`--cpu-prof`, `--cpu-prof-dir=${cpuProfDir}`] : []),
      `--etcd-servers=${etcdServer.endpoint}`, `--nats-url=${nats.url}`, `--secure-port=${storagePort}`,
      `--tls-cert-file=${st.certFile}`, `--tls-private-key-file=${st.keyFile}`, `--client-ca-file=${pki.caFile}`, '--identity=bench-storage',
    ], logDir);
    const authorizerPort = await freePort();
    const az = pki.file('authorizer');
    // The authorizer writes its bootstrap policy through gateway-a (the first one started).
    const gatewayPorts = [await freePort(), await freePort(), await freePort()];
    const azKubeconfig = (await userKubeconfig(pki, `https://127.0.0.1:${gatewayPorts[0]}`, 'system:orch:authorizer', ['system:masters'])).kubeconfig;
    const authorizer = await startProc('authorizer', 'services/authorizer/dist/main.js', [
      `--storage-servers=127.0.0.1:${storagePort}`, `--nats-url=${nats.url}`, `--secure-port=${authorizerPort}`,
      `--tls-cert-file=${az.certFile}`, `--tls-private-key-file=${az.keyFile}`, `--client-ca-file=${pki.caFile}`,
      `--kubeconfig=${azKubeconfig}`,
    ], logDir);
    const gwFiles = pki.file('gateway');
    const gws: Gateway[] = [];
    let allowGw: Gateway | undefined;
    for (const [i, name] of ['gateway-a', 'gateway-b', 'gateway-allow'].entries()) {
      const port = gatewayPorts[i]!;
      const proc = await startProc(name, 'services/gateway/dist/main.js', [
        ...(cpuProfDir ? [`--cpu-prof`, `--cpu-prof-dir=${cpuProfDir}`] : []),
        `--secure-port=${port}`, `--tls-cert-file=${gwFiles.certFile}`, `--tls-private-key-file=${gwFiles.keyFile}`,
        `--client-ca-file=${pki.caFile}`, `--storage-servers=127.0.0.1:${storagePort}`, `--grpc-ca-file=${pki.caFile}`,
        `--grpc-cert-file=${gwFiles.certFile}`, `--grpc-key-file=${gwFiles.keyFile}`, `--nats-url=${nats.url}`,
        `--authorizer-servers=127.0.0.1:${authorizerPort}`, `--authorization-mode=${name === 'gateway-allow' ? 'AlwaysAllow' : 'RBAC'}`,
      ], logDir);
      if (name === 'gateway-allow') allowGw = { url: `https://127.0.0.1:${port}`, proc };
      else gws.push({ url: `https://127.0.0.1:${port}`, proc });
    }
    const admin = pki.file('admin');
    const tls = { ca: readFileSync(pki.caFile), cert: readFileSync(admin.certFile), key: readFileSync(admin.keyFile) };
    tlsFiles = tls;
    agent = new Agent({ connect: tls, connections: 128, keepAliveTimeout: 60_000 });
    watchAgent = new Agent({ connect: tls, keepAliveTimeout: 60_000, headersTimeout: 30_000, bodyTimeout: 0 });
    etcd = new Etcd3({ hosts: etcdServer.endpoint });

    for (const g of [...gws, allowGw!]) {
      const abortReason = () => exitedReason(storage) ?? exitedReason(authorizer) ?? exitedReason(g.proc);
      await waitFor(`${g.proc.name} /readyz`, async () => (await call(`${g.url}/readyz`, 'GET')).status === 200, { timeoutMs: 30_000, abortReason });
      await waitFor(`${g.proc.name} namespace default`, async () => (await call(`${g.url}/api/v1/namespaces/default`, 'GET')).status === 200, { timeoutMs: 30_000, abortReason });
    }
    console.log('cluster ready');

    const steps: [string, () => Promise<void>][] = [
      ['creates+gets', async () => { const names = await benchCreates(gws, etcd!); await benchGets(gws, etcd!, names); }],
      ['list', () => benchList(gws, etcd!)],
      ['representations', () => benchRepresentations(gws)],
      ['watch', () => benchWatch(gws, nats!.url, etcd!, 'gateway')],
      ['watch via etcd', () => benchWatch(gws, nats!.url, etcd!, 'etcd')],
      ['idle watch memory', () => benchIdleWatchMemory(gws[1]!, { ...gwFiles, caFile: pki!.caFile })],
      ['authorization cost', () => benchAuthorization(gws[0]!, allowGw!)],
    ];
    for (const [name, step] of steps) {
      if (onlySteps && !onlySteps.includes(name)) continue;
      try {
        await step();
      } catch (err) {
        rows.push({ metric: `${name}: FAILED`, orch: '-', baseline: '-', ratio: '-', target: '-', pass: false });
        notes.push(`${name} failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      }
      for (const p of procs) {
        const why = exitedReason(p);
        if (why) throw new Error(`${why}; see ${logDir}/${p.name}.log`);
      }
    }
  } finally {
    if (cpuProfDir) {
      await stopGracefully().catch(() => undefined);
      notes.push(...summarizeProfiles(cpuProfDir, new Map(procs.map((p) => [p.child.pid ?? -1, p.name]))));
    }
    killAll();
    etcd?.close();
    await agent?.close().catch(() => undefined);
    await watchAgent?.destroy().catch(() => undefined);
    await nats?.stop().catch(() => undefined);
    await etcdServer?.stop().catch(() => undefined);
    await pki?.cleanup().catch(() => undefined);
  }
  printTable();
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    killAll();
    process.exit(130);
  });
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    killAll();
    printTable();
    console.error('bench aborted:', err);
    process.exit(0);
  }
);
