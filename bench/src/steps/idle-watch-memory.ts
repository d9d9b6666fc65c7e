// idle watch memory: the gateway's RSS growth per idle watch (10,000 by default) beside a bare
// Node HTTPS server holding as many idle requests.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Agent } from 'undici';
import { startBareHttpsServer } from '../baselines.js';
import { rssKb } from '../cpu.js';
import { f } from '../report.js';
import type { BenchContext, BenchStep } from '../step.js';
import { openWatch } from '../watches.js';
import type { Watcher } from '../watches.js';

export const idleWatchMemory: BenchStep = { name: 'idle watch memory', run: benchIdleWatchMemory };

/** Opens n watches (batches of 100) and returns the RSS growth of pid per watch after a settle. */
async function idleWatchCost(
  agent: Agent,
  pid: number,
  n: number,
  url: string
): Promise<{
  perWatch: number;
  opened: number;
  before: number;
  after: number;
  failed: number;
  firstError?: string;
}> {
  const before = rssKb(pid);
  const watchers: Watcher[] = [];
  let failed = 0;
  let firstError: string | undefined;
  for (let b = 0; b < n; b += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, n - b) }, async () => {
        try {
          watchers.push(await openWatch(agent, url));
        } catch (err) {
          failed++;
          firstError ??= String(err);
        }
      })
    );
  }
  await sleep(3000);
  const after = rssKb(pid);
  for (const w of watchers) w.abort.abort();
  await Promise.all(watchers.map((w) => w.done));
  return {
    perWatch: (after - before) / Math.max(1, watchers.length),
    opened: watchers.length,
    before,
    after,
    failed,
    ...(firstError ? { firstError } : {}),
  };
}

async function benchIdleWatchMemory(ctx: BenchContext): Promise<void> {
  const gw = ctx.gateways[1]!;
  const { createNamespace, mustCall, watchAgent } = ctx.client;
  const { rows, notes } = ctx.report;
  const n = Number(process.env['BENCH_IDLE_WATCHES'] ?? 10_000);
  const ns = 'bench-idle';
  await createNamespace(gw, ns);
  const list = JSON.parse(
    await mustCall(`${gw.url}/api/v1/namespaces/${ns}/configmaps`, 'GET')
  ) as { metadata: { resourceVersion: string } };
  await sleep(1000);
  console.log(`[5] memory: opening ${n} idle watches on one gateway...`);
  const orch = await idleWatchCost(
    watchAgent,
    gw.pid,
    n,
    `${gw.url}/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${list.metadata.resourceVersion}`
  );

  console.log(`[5] memory baseline: ${n} idle requests on a bare Node HTTPS server...`);
  const bare = await startBareHttpsServer(ctx.servingFiles);
  try {
    await sleep(1000);
    const base = await idleWatchCost(
      watchAgent,
      bare.child.pid!,
      n,
      `https://127.0.0.1:${bare.port}/idle`
    );
    rows.push({
      metric: `gateway RSS per idle watch KB (n=${orch.opened})`,
      orch: f(orch.perWatch, 1),
      baseline: f(base.perWatch, 1) + ' (bare Node HTTPS)',
      ratio: f(orch.perWatch / base.perWatch, 2),
      target: '<= 20 KB',
      pass: orch.perWatch <= 20,
    });
    notes.push(
      `idle-watch memory: ${n} watches (BENCH_IDLE_WATCHES), RSS from /proc/<pid>/status after a 3 s settle, no forced GC; gateway ${orch.before} -> ${orch.after} KB, bare HTTPS ${base.before} -> ${base.after} KB. One HTTP/1.1 TLS connection per watch: the bare server shows what Node and OpenSSL cost per connection before any gateway state`
    );
    if (orch.failed)
      notes.push(`idle watches: ${orch.failed} failed to open, first: ${orch.firstError}`);
    if (base.failed)
      notes.push(`bare HTTPS baseline: ${base.failed} failed to open, first: ${base.firstError}`);
  } finally {
    bare.kill();
  }
}
