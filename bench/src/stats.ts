// Timing loops and their statistics, shared by every step.
import { performance } from 'node:perf_hooks';

/** The `q` quantile of ascending `sorted`; NaN when empty. */
export function pct(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

export interface RunResult {
  ok: number;
  errors: number;
  seconds: number;
  latencies: number[];
  firstError?: string;
}

/** Runs `op` with `concurrency` loops in flight for `durationMs`; latencies in ms, sorted. */
export async function runFor(
  durationMs: number,
  concurrency: number,
  op: (i: number) => Promise<void>
): Promise<RunResult> {
  const latencies: number[] = [];
  let ok = 0;
  let errors = 0;
  let firstError: string | undefined;
  let seq = 0;
  const start = performance.now();
  const deadline = start + durationMs;
  const loop = async () => {
    while (performance.now() < deadline) {
      const i = seq++;
      const t0 = performance.now();
      try {
        await op(i);
        latencies.push(performance.now() - t0);
        ok++;
      } catch (err) {
        errors++;
        firstError ??= String(err);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { ok, errors, seconds, latencies, firstError };
}

/**
 * The steady state, not the first seconds: each measured run of an operation is preceded by an
 * untimed run of the same operation, so that the code on its path in every process (V8's
 * optimised code, the pools, the caches) is warm, as in a server that has run a while. Measured
 * cold, the first run of a step cost up to twice the CPU per operation of a second run of the
 * same operation (PUT of a Deployment: 7,280 against 3,514 µs in orch's processes, with the
 * bench client's own cost 418 against 205 µs). The warm-up's indices start at 10^9, so that
 * names made from them do not collide with the measured run's.
 */
export async function warmUp(
  concurrency: number,
  op: (i: number) => Promise<void>,
  durationMs = 2000
): Promise<void> {
  await runFor(durationMs, concurrency, (i) => op(1e9 + i));
}

/** Two runs as one (their latencies merged, sorted). */
export function mergeRuns(a: RunResult, b: RunResult): RunResult {
  return {
    ok: a.ok + b.ok,
    errors: a.errors + b.errors,
    seconds: a.seconds + b.seconds,
    latencies: [...a.latencies, ...b.latencies].sort((x, y) => x - y),
    ...((a.firstError ?? b.firstError) ? { firstError: a.firstError ?? b.firstError } : {}),
  };
}
