// idle watch memory: the gateway's RSS growth per idle watch (10,000 by default), over HTTP/2
// (100 streams per connection, as client-go multiplexes) beside a bare Node HTTP/2 server holding
// as many idle streams, and over HTTP/1.1 (one connection per watch) beside a bare Node HTTPS
// server holding as many idle requests.
import { connect, constants } from 'node:http2';
import type { ClientHttp2Session, ClientHttp2Stream, IncomingHttpHeaders } from 'node:http2';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Agent } from 'undici';
import { startBareHttpsServer } from '../baselines.js';
import type { ClientTls } from '../client.js';
import { rssKb } from '../cpu.js';
import { f } from '../report.js';
import type { BenchContext, BenchStep } from '../step.js';
import { openWatch } from '../watches.js';

export const idleWatchMemory: BenchStep = { name: 'idle watch memory', run: benchIdleWatchMemory };

/** Streams per HTTP/2 connection: client-go's (and the gateway's default) limit. */
const streamsPerConnection = 100;

interface Held {
  close(): Promise<void>;
}

interface Cost {
  perWatch: number;
  opened: number;
  before: number;
  after: number;
  failed: number;
  firstError?: string;
}

/** Opens n watches (batches of 100) and returns the RSS growth of pid per watch after a settle. */
async function idleWatchCost(
  pid: number,
  n: number,
  open: (i: number) => Promise<Held>,
  closeAll: () => Promise<void> = async () => undefined
): Promise<Cost> {
  const before = rssKb(pid);
  const held: Held[] = [];
  let failed = 0;
  let firstError: string | undefined;
  for (let b = 0; b < n; b += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, n - b) }, async (_, i) => {
        try {
          held.push(await open(b + i));
        } catch (err) {
          failed++;
          firstError ??= String(err);
        }
      })
    );
  }
  await sleep(3000);
  const after = rssKb(pid);
  await Promise.all(held.map((w) => w.close()));
  await closeAll();
  return {
    perWatch: (after - before) / Math.max(1, held.length),
    opened: held.length,
    before,
    after,
    failed,
    ...(firstError ? { firstError } : {}),
  };
}

/** HTTP/1.1 watches: undici's pool, one connection per open request. */
function http1Watches(agent: Agent, url: string): (i: number) => Promise<Held> {
  return async () => {
    const w = await openWatch(agent, url);
    return {
      close: async () => {
        w.abort.abort();
        await w.done;
      },
    };
  };
}

/** HTTP/2 watches: watch i is a stream on session ⌊i / 100⌋; the sessions close at the end. */
function http2Watches(
  url: string,
  tls: ClientTls
): { open: (i: number) => Promise<Held>; closeAll: () => Promise<void> } {
  const sessions: ClientHttp2Session[] = [];
  const target = new URL(url);
  const sessionFor = (i: number): ClientHttp2Session => {
    const k = Math.floor(i / streamsPerConnection);
    let s = sessions[k];
    if (!s || s.destroyed) {
      s = connect(target.origin, tls);
      s.on('error', () => undefined);
      sessions[k] = s;
    }
    return s;
  };
  const open = (i: number): Promise<Held> =>
    new Promise((resolve, reject) => {
      const stream: ClientHttp2Stream = sessionFor(i).request({
        ':path': `${target.pathname}${target.search}`,
        accept: 'application/json',
      });
      stream.end();
      stream.on('error', reject);
      stream.once('response', (h: IncomingHttpHeaders) => {
        if (Number(h[':status']) !== 200) {
          stream.close();
          reject(new Error(`watch ${url}: ${String(h[':status'])}`));
          return;
        }
        stream.resume(); // events read and dropped
        resolve({
          close: () =>
            new Promise<void>((r) => {
              if (stream.closed) return r();
              stream.once('close', () => r());
              stream.close(constants.NGHTTP2_CANCEL);
            }),
        });
      });
    });
  const closeAll = async (): Promise<void> => {
    await Promise.all(
      sessions.map((s) => new Promise<void>((r) => (s.closed ? r() : s.close(() => r()))))
    );
  };
  return { open, closeAll };
}

async function benchIdleWatchMemory(ctx: BenchContext): Promise<void> {
  // Each protocol on a gateway of its own, started for this step, so that neither reuses memory
  // that the other, or an earlier step, made the process hold (a gateway that served the steps
  // before grows less per watch, as the bare servers it is compared with are fresh too).
  const gwH2 = await ctx.extraGateway('gateway-fresh-h2');
  const gwH1 = await ctx.extraGateway('gateway-fresh-h1');
  const { createNamespace, mustCall, watchAgent, tls } = ctx.client;
  const { rows, notes } = ctx.report;
  const n = Number(process.env['BENCH_IDLE_WATCHES'] ?? 10_000);
  const ns = 'bench-idle';
  await createNamespace(gwH2, ns);
  const list = JSON.parse(
    await mustCall(`${gwH2.url}/api/v1/namespaces/${ns}/configmaps`, 'GET')
  ) as { metadata: { resourceVersion: string } };
  const path = `/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${list.metadata.resourceVersion}`;
  await sleep(1000);

  console.log(`[5] memory: ${n} idle watches over HTTP/2 on ${gwH2.name}...`);
  const h2Clients = http2Watches(`${gwH2.url}${path}`, tls);
  const orchH2 = await idleWatchCost(gwH2.pid, n, h2Clients.open, h2Clients.closeAll);
  console.log(`[5] memory: ${n} idle watches over HTTP/1.1 on ${gwH1.name}...`);
  const orchH1 = await idleWatchCost(gwH1.pid, n, http1Watches(watchAgent, `${gwH1.url}${path}`));

  console.log(`[5] memory baselines: ${n} idle streams / requests on bare Node servers...`);
  const bareH2 = await startBareHttpsServer(ctx.servingFiles, 'h2');
  let baseH2: Cost;
  try {
    await sleep(1000);
    const c = http2Watches(`https://127.0.0.1:${bareH2.port}/idle`, tls);
    baseH2 = await idleWatchCost(bareH2.child.pid!, n, c.open, c.closeAll);
  } finally {
    bareH2.kill();
  }
  const bareH1 = await startBareHttpsServer(ctx.servingFiles);
  let baseH1: Cost;
  try {
    await sleep(1000);
    baseH1 = await idleWatchCost(
      bareH1.child.pid!,
      n,
      http1Watches(watchAgent, `https://127.0.0.1:${bareH1.port}/idle`)
    );
  } finally {
    bareH1.kill();
  }

  rows.push({
    metric: `gateway RSS per idle watch KB, HTTP/2, ${streamsPerConnection}/connection (n=${orchH2.opened})`,
    orch: f(orchH2.perWatch, 1),
    baseline: f(baseH2.perWatch, 1) + ' (bare Node HTTP/2)',
    ratio: f(orchH2.perWatch / baseH2.perWatch, 2),
    target: '<= 10 KB',
    pass: orchH2.perWatch <= 10,
  });
  rows.push({
    metric: `gateway RSS per idle watch KB, HTTP/1.1 (n=${orchH1.opened})`,
    orch: f(orchH1.perWatch, 1),
    baseline: f(baseH1.perWatch, 1) + ' (bare Node HTTPS)',
    ratio: f(orchH1.perWatch / baseH1.perWatch, 2),
    target: '<= 1.1 x bare',
    pass: orchH1.perWatch <= 1.1 * baseH1.perWatch,
  });
  notes.push(
    `idle-watch memory: ${n} watches (BENCH_IDLE_WATCHES), RSS from /proc/<pid>/status after a 3 s settle, no forced GC; HTTP/2 (${streamsPerConnection} streams per connection) on ${gwH2.name}, HTTP/1.1 (one TLS connection per watch) on ${gwH1.name}. Gateway h2 ${orchH2.before} -> ${orchH2.after} KB, h1 ${orchH1.before} -> ${orchH1.after} KB; bare HTTP/2 ${baseH2.before} -> ${baseH2.after} KB, bare HTTPS ${baseH1.before} -> ${baseH1.after} KB`
  );
  for (const [what, c] of [
    ['gateway HTTP/2', orchH2],
    ['gateway HTTP/1.1', orchH1],
    ['bare HTTP/2', baseH2],
    ['bare HTTPS', baseH1],
  ] as const) {
    if (c.failed)
      notes.push(`idle watches, ${what}: ${c.failed} failed to open, first: ${c.firstError}`);
  }
}
