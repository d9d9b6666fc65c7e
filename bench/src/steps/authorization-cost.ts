// authorization cost: GET/s through an RBAC gateway (one gRPC Authorize per request, or a
// cached decision) versus an AlwaysAllow one, interleaved.
import type { Gateway } from '../client.js';
import { f } from '../report.js';
import { mergeRuns, pct, runFor } from '../stats.js';
import type { RunResult } from '../stats.js';
import type { BenchContext, BenchStep } from '../step.js';

export const authorizationCost: BenchStep = { name: 'authorization cost', run: benchAuthorization };

/** GET/s through an RBAC gateway (one gRPC Authorize per request) versus an AlwaysAllow one. */
async function benchAuthorization(ctx: BenchContext): Promise<void> {
  const rbacGw = ctx.gateways[0]!;
  const allowGw = ctx.allowGateway;
  const { call, mustCall } = ctx.client;
  const { rows, notes } = ctx.report;
  const name = 'authz-bench';
  await mustCall(
    `${rbacGw.url}/api/v1/namespaces/default/configmaps`,
    'POST',
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } },
    [201, 409]
  );
  const run = (g: Gateway) =>
    runFor(3000, 16, async () => {
      const r = await call(`${g.url}/api/v1/namespaces/default/configmaps/${name}`, 'GET');
      if (r.status !== 200) throw new Error(`get: ${r.status} ${r.text.slice(0, 200)}`);
    });
  // Interleaved (allow, RBAC, RBAC, allow) so that load from outside the bench weighs on both alike.
  console.log(
    '[6] authorization: GET through an AlwaysAllow and an RBAC gateway, interleaved (16 in flight, 4 x 3 s)...'
  );
  const a1 = await run(allowGw);
  const r1 = await run(rbacGw);
  const r2 = await run(rbacGw);
  const a2 = await run(allowGw);
  const allow = mergeRuns(a1, a2);
  const rbac = mergeRuns(r1, r2);
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
