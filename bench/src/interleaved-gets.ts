// GETs of one ConfigMap through two gateways, interleaved (a, b, b, a; 16 in flight, 3 s each)
// so that load from outside the bench weighs on both alike: the measurement of the steps that
// compare a gateway with one feature against one without (authorization cost, audit webhook
// down).
import type { Gateway } from './client.js';
import { mergeRuns, runFor } from './stats.js';
import type { RunResult } from './stats.js';
import type { BenchContext } from './step.js';

/**
 * Creates ConfigMap `name` in `default` (or finds it) through `a`, then GETs it through `a`
 * and `b` interleaved; with `warm`, one untimed run through each first.
 */
export async function interleavedGets(
  ctx: BenchContext,
  name: string,
  a: Gateway,
  b: Gateway,
  warm = false
): Promise<{ a: RunResult; b: RunResult }> {
  const { call, mustCall } = ctx.client;
  await mustCall(
    `${a.url}/api/v1/namespaces/default/configmaps`,
    'POST',
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } },
    [201, 409]
  );
  const run = (g: Gateway) =>
    runFor(3000, 16, async () => {
      const r = await call(`${g.url}/api/v1/namespaces/default/configmaps/${name}`, 'GET');
      if (r.status !== 200) throw new Error(`get: ${r.status} ${r.text.slice(0, 200)}`);
    });
  if (warm) {
    await run(a);
    await run(b);
  }
  const a1 = await run(a);
  const b1 = await run(b);
  const b2 = await run(b);
  const a2 = await run(a);
  return { a: mergeRuns(a1, a2), b: mergeRuns(b1, b2) };
}
