// apf flood: fairness across the fleet, measured. A flooding client (the bench user, in a
// FlowSchema of its own whose priority level has a few seats, nothing lent or borrowed) sends
// GETs to an aggregated group whose extension server answers 50 ms late, 32 in flight per
// gateway, so that what it is allowed is set by seats and not by CPU (each request holds its
// seat while the backend waits). Its accepted rate (200s per second) through one gateway, then
// through two with fleet fairness on (the default; target: within 1.2 x of one gateway's, since
// the fleet caps a flow at one gateway's share between them) and through two whose accounting
// is their own (--enable-fleet-priority-and-fairness=false; each gives the flow a whole share,
// about 2 x).
import { readFileSync } from 'node:fs';
import { metricsGroup, registrationOf, startExtensionServer } from '@orch/testing';
import type { Gateway } from '../client.js';
import { f } from '../report.js';
import { runFor } from '../stats.js';
import type { BenchContext, BenchStep } from '../step.js';
import { createTightFlow } from '../tight-flow.js';

export const apfFlood: BenchStep = { name: 'apf flood', run: benchApfFlood };

const ns = 'bench-apf-flood';
const name = 'bench-flood';
const backendDelayMs = 50;
const inFlightPerGateway = 32;
const runMs = 4000;
const target = 1.2;

async function benchApfFlood(ctx: BenchContext): Promise<void> {
  const gw = ctx.gateways[0]!;
  const { call, mustCall, createNamespace } = ctx.client;
  const { rows, notes } = ctx.report;
  const server = await startExtensionServer({
    service: { namespace: ns, name: 'slow-metrics' },
    requestHeaderCaPem: readFileSync(ctx.clusterCa.certFile, 'utf8'),
    data: { nodes: [{ name: 'n', usage: { cpu: '1', memory: '1Mi' } }], pods: [] },
    delayMs: backendDelayMs,
  });
  const cleanup: string[] = [];
  try {
    console.log(
      `[apf flood] a flow of ${inFlightPerGateway} GETs in flight per gateway, its backend ${backendDelayMs} ms late: 1 gateway, 2 with fleet fairness, 2 without...`
    );
    await createNamespace(gw, ns);
    cleanup.push(`/api/v1/namespaces/${ns}`);
    for (const o of registrationOf(server, { namespace: ns, service: 'slow-metrics' })) {
      await mustCall(`${gw.url}${o.path}`, 'POST', o.body, [201, 409]);
      if (o.path.includes('apiservices')) cleanup.push(`${o.path}/v1beta1.${metricsGroup}`);
    }
    // About 3 of a gateway's 600 seats; a short queue, so the rest is refused with 429.
    cleanup.push(
      ...(await createTightFlow(ctx, gw, name, 4, {
        verbs: ['get'],
        apiGroups: [metricsGroup],
        resources: ['nodes'],
        clusterScope: true,
      }))
    );
    const path = `/apis/${metricsGroup}/v1beta1/nodes/n`;
    const noFleet = [
      await ctx.extraGateway('gateway-nofleet-a'),
      await ctx.extraGateway('gateway-nofleet-b'),
    ];
    const all = [...ctx.gateways, ...noFleet];
    // Every gateway serves the group (its APIService Available there) and classifies the flood.
    for (const g of all)
      for (let i = 0; ; i++) {
        const r = await call(`${g.url}${path}`, 'GET');
        if (r.status === 200) break;
        if (i === 300) throw new Error(`${g.name}: ${path}: ${r.status} ${r.text.slice(0, 200)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    const flood = async (through: Gateway[]) => {
      const run = () =>
        runFor(runMs, inFlightPerGateway * through.length, async (i) => {
          const r = await call(`${through[i % through.length]!.url}${path}`, 'GET');
          if (r.status === 429) throw new Error('429');
          if (r.status !== 200) throw new Error(`${r.status} ${r.text.slice(0, 200)}`);
        });
      await run(); // the fleet's summaries (every 200 ms) settle on the flow's demand
      const measured = await run();
      return {
        rate: measured.ok / measured.seconds,
        refused: measured.errors,
        first: measured.firstError,
      };
    };
    const one = await flood([ctx.gateways[0]!]);
    const fleet = await flood(ctx.gateways);
    const alone = await flood(noFleet);
    rows.push({
      metric: 'APF flood: accepted GETs/s, 1 gateway',
      orch: f(one.rate, 0),
      baseline: '-',
      ratio: '-',
      target: '-',
      pass: undefined,
    });
    rows.push({
      metric: 'APF flood: 2 gateways, fleet fairness',
      orch: f(fleet.rate, 0),
      baseline: `${f(one.rate, 0)} (1 gateway)`,
      ratio: f(fleet.rate / one.rate, 2),
      target: `<= ${target}`,
      pass: fleet.rate / one.rate <= target,
    });
    rows.push({
      metric: 'APF flood: 2 gateways, each alone',
      orch: f(alone.rate, 0),
      baseline: `${f(one.rate, 0)} (1 gateway)`,
      ratio: f(alone.rate / one.rate, 2),
      target: 'about 2',
      pass: undefined,
    });
    for (const [label, r] of [
      ['1 gateway', one],
      ['fleet', fleet],
      ['alone', alone],
    ] as const)
      if (r.refused === 0 || (r.first && r.first !== 'Error: 429'))
        notes.push(`apf flood (${label}): ${r.refused} refused, first: ${r.first ?? 'none'}`);
  } finally {
    for (const p of cleanup.reverse()) await call(`${gw.url}${p}`, 'DELETE').catch(() => undefined);
    await server.stop();
  }
}
