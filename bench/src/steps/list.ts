// list: 10,000 configmaps seeded through raw etcd, paged in 500s through a gateway beside the
// same pages read from etcd (median of 3).
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { now } from '@orch/apimachinery/meta';
import { f } from '../report.js';
import type { BenchContext, BenchStep } from '../step.js';

export const list: BenchStep = { name: 'list', run: benchList };

function prefixEnd(prefix: string): Buffer {
  const buf = Buffer.from(prefix);
  buf[buf.length - 1] = buf[buf.length - 1]! + 1;
  return buf;
}

async function benchList(ctx: BenchContext): Promise<void> {
  const { gateways: gws, etcd } = ctx;
  const { createNamespace, mustCall } = ctx.client;
  const { rows } = ctx.report;
  const ns = 'bench-list';
  const n = 10_000;
  const gw = gws[0]!;
  console.log(`[3] list: seeding ${n} configmaps through raw etcd...`);
  await createNamespace(gw, ns);
  const prefix = `/registry/core/configmaps/${ns}/`;
  const createdAt = now();
  const batches: Promise<unknown>[] = [];
  for (let b = 0; b < n / 100; b++) {
    const puts = [];
    for (let j = 0; j < 100; j++) {
      const name = `cm-${String(b * 100 + j).padStart(5, '0')}`;
      const value = JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: ns, uid: randomUUID(), creationTimestamp: createdAt },
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
      const res = await etcd.kv.range({
        key: start,
        range_end: end,
        limit: 500,
        ...(revision ? { revision } : {}),
      });
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
      const body = JSON.parse(await mustCall(url, 'GET')) as {
        items: unknown[];
        metadata: { continue?: string };
      };
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
  rows.push({
    metric: `list ${n} in pages of 500, ms`,
    orch: `${f(g.ms, 0)} (${g.count} items)`,
    baseline: `${f(raw.ms, 0)} (${raw.count} keys)`,
    ratio: f(ratio, 2) + 'x',
    target: '<= 3x raw',
    pass: ratio <= 3 && g.count === n,
  });
}
