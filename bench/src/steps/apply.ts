// apply: server-side apply (PATCH application/apply-patch+yaml with a fieldManager) against a
// plain update (PUT of the whole object) of the same deployments in the same run, each changing
// replicas so that every operation writes; beside them raw etcd puts of the same objects' bytes.
// The figure is apply's cost as a multiple of update's, in gateway CPU per operation and in
// rate at the same concurrency (target: at most 1.5).
import { request } from 'undici';
import { warmedCpuPerOp } from '../cpu.js';
import { cpuRow, f } from '../report.js';
import type { CpuByProcess } from '../report.js';
import { pct } from '../stats.js';
import type { RunResult } from '../stats.js';
import type { BenchStep } from '../step.js';

const objects = 200;
const inFlight = 16;
const ns = 'bench-apply';

function deployment(name: string, replicas: number): Record<string, unknown> {
  const labels = { app: name, tier: 'web', team: 'bench' };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns, labels },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx:1.27',
              ports: [{ containerPort: 80 }, { containerPort: 443 }],
              env: [
                { name: 'MODE', value: 'production' },
                { name: 'LEVEL', value: 'info' },
              ],
              resources: { requests: { cpu: '100m', memory: '128Mi' } },
            },
            { name: 'sidecar', image: 'busybox:1.36', args: ['sleep', 'infinity'] },
          ],
        },
      },
    },
  };
}

export const apply: BenchStep = {
  name: 'apply',
  async run(ctx) {
    const { gateways: gws, client, etcd, processes } = ctx;
    const { rows, notes } = ctx.report;
    await client.createNamespace(gws[0]!, ns);
    const path = (i: number) => `/apis/apps/v1/namespaces/${ns}/deployments/d${i % objects}`;
    const applyOnce = async (i: number, replicas: number): Promise<void> => {
      const g = gws[i % gws.length]!;
      const res = await request(`${g.url}${path(i)}?fieldManager=bench`, {
        method: 'PATCH',
        dispatcher: client.agent,
        headers: { 'content-type': 'application/apply-patch+yaml' },
        body: JSON.stringify(deployment(`d${i % objects}`, replicas)),
      });
      const text = await res.body.text();
      if (res.statusCode !== 200 && res.statusCode !== 201)
        throw new Error(`apply: ${res.statusCode} ${text.slice(0, 200)}`);
    };
    console.log(`[apply] seeding ${objects} deployments by apply...`);
    for (let i = 0; i < objects; i++) await applyOnce(i, 1);

    const measured = async (
      what: string,
      op: (i: number) => Promise<void>
    ): Promise<{ run: RunResult; perOp: string; gwUs: number; us: CpuByProcess }> => {
      console.log(
        `[apply] ${what} (${inFlight} in flight over both gateways, 8 s after 2 s of warm-up)...`
      );
      // One sequence through the warm-up and the run: each operation still changes its object.
      let n = 0;
      const next = () => op(n++);
      const { result, perOp, us } = await warmedCpuPerOp(processes, inFlight, next, what);
      const gwUs = Object.entries(us)
        .filter(([name]) => name.startsWith('gateway-'))
        .reduce((a, [, v]) => a + v, 0);
      if (result.errors)
        notes.push(`${what}: ${result.errors} errors, first: ${result.firstError}`);
      return { run: result, perOp, gwUs, us };
    };
    // Each operation sets replicas to a value the object does not have (1 or 2 by round).
    const round = (i: number) => 2 + (Math.floor(i / objects) % 2);
    const raw = await measured('raw etcd put of the same bytes', async (i) => {
      const key = Buffer.from(`/bench-raw/apply/d${i % objects}`);
      await etcd.put(key).value(JSON.stringify(deployment(`d${i % objects}`, round(i))));
    });
    const update = await measured('gateway PUT (update)', async (i) => {
      const g = gws[i % gws.length]!;
      const r = await client.call(
        `${g.url}${path(i)}?fieldManager=bench-update`,
        'PUT',
        deployment(`d${i % objects}`, round(i))
      );
      if (r.status !== 200) throw new Error(`update: ${r.status} ${r.text.slice(0, 200)}`);
    });
    const applied = await measured('gateway PATCH apply-patch+yaml (apply, force)', async (i) => {
      const g = gws[i % gws.length]!;
      const res = await request(`${g.url}${path(i)}?fieldManager=bench&force=true`, {
        method: 'PATCH',
        dispatcher: client.agent,
        headers: { 'content-type': 'application/apply-patch+yaml' },
        body: JSON.stringify(deployment(`d${i % objects}`, round(i) + 2)),
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`apply: ${res.statusCode} ${text.slice(0, 200)}`);
    });
    const rate = (r: RunResult) => r.ok / r.seconds;
    ctx.report.cpu.push({ operation: 'update, raw etcd put', us: raw.us });
    ctx.report.cpu.push({ operation: 'update (PUT Deployment)', us: update.us });
    ctx.report.cpu.push({ operation: 'server-side apply (Deployment)', us: applied.us });
    rows.push(cpuRow('CPU µs per update, orch processes', update.us, raw.us, 'etcd put', 3500));
    notes.push(
      `apply step, CPU µs per op: raw etcd put: ${raw.perOp}; update: ${update.perOp}; apply: ${applied.perOp}`
    );
    rows.push({
      metric: `update/s (PUT deployment, ${inFlight} in flight)`,
      orch: f(rate(update.run), 0),
      baseline: `${f(rate(raw.run), 0)} (etcd put)`,
      ratio: f(rate(update.run) / rate(raw.run), 2),
      target: '-',
      pass: undefined,
    });
    const rateCost = rate(update.run) / rate(applied.run);
    rows.push({
      metric: `apply/s (server-side apply, ${inFlight} in flight)`,
      orch: f(rate(applied.run), 0),
      baseline: `${f(rate(update.run), 0)} (update)`,
      ratio: f(rateCost, 2) + ' x cost',
      target: 'cost <= 1.5 x update',
      pass: rateCost <= 1.5,
    });
    const cpuCost = applied.gwUs / update.gwUs;
    rows.push({
      metric: 'apply gateway CPU µs/op',
      orch: f(applied.gwUs, 0),
      baseline: `${f(update.gwUs, 0)} (update)`,
      ratio: f(cpuCost, 2) + ' x cost',
      target: 'cost <= 1.5 x update',
      pass: cpuCost <= 1.5,
    });
    rows.push({
      metric: 'apply p50/p99 ms',
      orch: `${f(pct(applied.run.latencies, 0.5))}/${f(pct(applied.run.latencies, 0.99))}`,
      baseline: `${f(pct(update.run.latencies, 0.5))}/${f(pct(update.run.latencies, 0.99))} (update)`,
      ratio: f(pct(applied.run.latencies, 0.99) / pct(update.run.latencies, 0.99), 2),
      target: '-',
      pass: undefined,
    });
  },
};
