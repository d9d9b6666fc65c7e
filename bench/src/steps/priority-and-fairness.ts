// priority and fairness: what APF adds to an unloaded GET (one in flight), through a gateway with
// it and one without (--enable-priority-and-fairness=false), interleaved; upstream's target for
// the classification, queueing and seat accounting of a request that never waits: <= 0.1 ms at
// p50.
import { interleavedGets, schedule } from '../interleaved-gets.js';
import { f } from '../report.js';
import { pct } from '../stats.js';
import type { BenchContext, BenchStep } from '../step.js';

export const priorityAndFairness: BenchStep = {
  name: 'priority and fairness',
  run: benchApf,
};

const targetMs = 0.1;

async function benchApf(ctx: BenchContext): Promise<void> {
  const { rows, notes } = ctx.report;
  console.log(
    `[apf] GET through a gateway with APF and one without, interleaved (1 in flight, ${schedule})...`
  );
  const { a: withApf, b: without } = await interleavedGets(
    ctx,
    'apf-bench',
    ctx.gateways[0]!,
    await ctx.extraGateway('gateway-noapf'),
    true,
    1
  );
  for (const q of [0.5, 0.99]) {
    const added = pct(withApf.latencies, q) - pct(without.latencies, q);
    rows.push({
      metric: `GET p${q * 100} ms, unloaded, APF`,
      orch: f(pct(withApf.latencies, q), 3),
      baseline: `${f(pct(without.latencies, q), 3)} (no APF)`,
      ratio: `${added >= 0 ? '+' : ''}${f(added, 3)} ms`,
      target: q === 0.5 ? `<= +${targetMs} ms` : '-',
      pass: q === 0.5 ? added <= targetMs : undefined,
    });
  }
  if (withApf.errors || without.errors)
    notes.push(
      `apf bench errors: with ${withApf.errors} (${withApf.firstError ?? ''}), without ${without.errors} (${without.firstError ?? ''})`
    );
}
