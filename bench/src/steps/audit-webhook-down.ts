// audit with its webhook down: GET latency through a gateway auditing every request at Metadata
// to a webhook backend nobody answers, versus a gateway without audit, interleaved. The webhook
// backend's batch mode must not let the dead server slow requests (target: p50 ratio <= 1.1, read
// as the median of the interleaved rounds' ratios; the pooled p50 and p99 are printed too).
import { interleavedGets, rounds, schedule } from '../interleaved-gets.js';
import { f } from '../report.js';
import { pct } from '../stats.js';
import type { BenchContext, BenchStep } from '../step.js';

export const auditWebhookDown: BenchStep = { name: 'audit webhook down', run: benchAuditDown };

const target = 1.1;

async function benchAuditDown(ctx: BenchContext): Promise<void> {
  const plain = ctx.gateways[0]!;
  const audited = await ctx.extraGateway('gateway-audit');
  const { rows, notes } = ctx.report;
  console.log(
    `[audit] GET through a gateway without audit and one auditing to a dead webhook, interleaved (16 in flight, ${schedule})...`
  );
  // Both warmed (connections, caches) first.
  const {
    a: without,
    b: withDead,
    roundRatios,
  } = await interleavedGets(ctx, 'audit-bench', plain, audited, true);
  const median = pct(
    [...roundRatios].sort((x, y) => x - y),
    0.5
  );
  rows.push({
    metric: `GET p50 ratio, audit webhook down (median of ${rounds} rounds)`,
    orch: roundRatios.map((r) => f(r, 2)).join(' '), // in the order run
    baseline: 'no audit',
    ratio: f(median, 2),
    target: `<= ${target}`,
    pass: median <= target,
  });
  for (const q of [0.5, 0.99]) {
    rows.push({
      metric: `GET p${q * 100} ms, audit webhook down (pooled)`,
      orch: f(pct(withDead.latencies, q), 2),
      baseline: f(pct(without.latencies, q), 2) + ' (no audit)',
      ratio: f(pct(withDead.latencies, q) / pct(without.latencies, q), 2),
      target: '-',
      pass: undefined,
    });
  }
  if (withDead.errors || without.errors)
    notes.push(
      `audit bench errors: dead webhook ${withDead.errors} (${withDead.firstError ?? ''}), no audit ${without.errors} (${without.firstError ?? ''})`
    );
}
