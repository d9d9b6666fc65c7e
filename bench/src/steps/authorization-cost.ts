// authorization cost: GET/s through an RBAC gateway (one gRPC Authorize per request, or a
// cached decision) versus an AlwaysAllow one, interleaved.
import { interleavedGets, schedule } from '../interleaved-gets.js';
import { f } from '../report.js';
import { pct } from '../stats.js';
import type { RunResult } from '../stats.js';
import type { BenchContext, BenchStep } from '../step.js';

export const authorizationCost: BenchStep = { name: 'authorization cost', run: benchAuthorization };

/** GET/s through an RBAC gateway (one gRPC Authorize per request) versus an AlwaysAllow one. */
async function benchAuthorization(ctx: BenchContext): Promise<void> {
  const rbacGw = ctx.gateways[0]!;
  const allowGw = await ctx.extraGateway('gateway-allow');
  const { rows, notes } = ctx.report;
  console.log(
    `[6] authorization: GET through an AlwaysAllow and an RBAC gateway, interleaved (16 in flight, ${schedule})...`
  );
  // Warmed: the AlwaysAllow gateway was started for this step (its code not yet optimised).
  const { a: allow, b: rbac } = await interleavedGets(ctx, 'authz-bench', allowGw, rbacGw, true);
  const rps = (r: RunResult) => r.ok / r.seconds;
  rows.push({
    metric: 'GET/s with RBAC (16 in flight)',
    orch: f(rps(rbac), 0),
    baseline: f(rps(allow), 0) + ' (AlwaysAllow)',
    ratio: f(rps(rbac) / rps(allow), 2),
    target: '-',
    pass: undefined,
  });
  rows.push({
    metric: 'GET p50 ms with RBAC',
    orch: f(pct(rbac.latencies, 0.5), 2),
    baseline: f(pct(allow.latencies, 0.5), 2) + ' (AlwaysAllow)',
    ratio: f(pct(rbac.latencies, 0.5) / pct(allow.latencies, 0.5), 2),
    target: '-',
    pass: undefined,
  });
  if (rbac.errors || allow.errors)
    notes.push(
      `authorization bench errors: rbac ${rbac.errors} (${rbac.firstError ?? ''}), allow ${allow.errors} (${allow.firstError ?? ''})`
    );
}
