// GETs of one ConfigMap through two gateways, interleaved (a, b, b, a sixteen times; 16 in
// flight, 0.75 s each) so that load from outside the bench weighs on both alike: the measurement
// of the steps that compare a gateway with one feature against one without (authorization cost,
// audit webhook down, priority and fairness). Besides the pooled runs it gives each round's p50
// of b over a's: on this 2-core machine a burst of load lasting a second (a collection in one of
// the suite's processes, a background resync) moves a round's ratio by ±0.15, and the median of
// the rounds' ratios is the figure such a burst cannot carry. Sixteen short rounds rather than six
// of 1.5 s (the same 48 s): a burst then spoils one run of many, and the median moves less.
import type { Gateway } from './client.js';
import { mergeRuns, pct, runFor } from './stats.js';
import type { RunResult } from './stats.js';
import type { BenchContext } from './step.js';

/** Rounds of a, b, b, a, and how long each run of a round lasts. */
export const rounds = 16;
const runMs = 750;
/** The schedule, as the steps print it. */
export const schedule = `${rounds} x 4 x ${runMs / 1000} s`;

/**
 * Creates ConfigMap `name` in `default` (or finds it) through `a`, then GETs it through `a`
 * and `b` interleaved; with `warm`, one untimed run through each first.
 */
export async function interleavedGets(
  ctx: BenchContext,
  name: string,
  a: Gateway,
  b: Gateway,
  warm = false,
  concurrency = 16
): Promise<{ a: RunResult; b: RunResult; roundRatios: number[] }> {
  const { call, mustCall } = ctx.client;
  await mustCall(
    `${a.url}/api/v1/namespaces/default/configmaps`,
    'POST',
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } },
    [201, 409]
  );
  const run = (g: Gateway, ms = 3000) =>
    runFor(ms, concurrency, async () => {
      const r = await call(`${g.url}/api/v1/namespaces/default/configmaps/${name}`, 'GET');
      if (r.status !== 200) throw new Error(`get: ${r.status} ${r.text.slice(0, 200)}`);
    });
  if (warm) {
    await run(a);
    await run(b);
  }
  // a b b a in short runs: a burst of load from outside (a GC, another process) lands on both
  // sides more evenly than in a few long ones
  let ra: RunResult | undefined;
  let rb: RunResult | undefined;
  const roundRatios: number[] = [];
  const add = (acc: RunResult | undefined, r: RunResult) => (acc ? mergeRuns(acc, r) : r);
  for (let round = 0; round < rounds; round++) {
    let roundA: RunResult | undefined;
    let roundB: RunResult | undefined;
    for (const g of [a, b, b, a]) {
      const r = await run(g, runMs);
      if (g === a) roundA = add(roundA, r);
      else roundB = add(roundB, r);
    }
    roundRatios.push(pct(roundB!.latencies, 0.5) / pct(roundA!.latencies, 0.5));
    ra = add(ra, roundA!);
    rb = add(rb, roundB!);
  }
  return { a: ra!, b: rb!, roundRatios };
}
