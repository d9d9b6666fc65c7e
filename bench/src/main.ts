// Load generators for the orch control plane (make bench): starts the bench's suite
// (bench-suite.ts: etcd, NATS, one storage, the authorizer, two RBAC gateways and an
// AlwaysAllow one), runs the steps (steps/, one file each) and prints each figure beside a raw
// baseline taken in the same run (report.ts).
// A benchmark, not a test: missed targets are printed as MISSED and do not change the exit
// code; a step that fails (an error, a refused request) makes it 1, as does a suite that cannot
// start.
//
//   BENCH_ONLY=<step>,...        only these steps (names below)
//   BENCH_CPU_PROF=<dir>         storage, admission and the gateways write CPU profiles (notes)
//   BENCH_NODE_FLAGS='<flags>'   Node flags for every service
//   BENCH_WATCHERS_PER_GATEWAY, BENCH_IDLE_WATCHES: see steps/watch.ts, steps/idle-watch-memory.ts
import { startBenchSuite } from './bench-suite.js';
import type { BenchSuite } from './bench-suite.js';
import { Report } from './report.js';
import type { BenchStep } from './step.js';
import { admission } from './steps/admission.js';
import { apfFlood } from './steps/apf-flood.js';
import { apfOverload } from './steps/apf-overload.js';
import { apply } from './steps/apply.js';
import { auditWebhookDown } from './steps/audit-webhook-down.js';
import { authorizationCost } from './steps/authorization-cost.js';
import { connect } from './steps/connect.js';
import { createsGets } from './steps/creates-gets.js';
import { customResources } from './steps/custom-resources.js';
import { idleWatchMemory } from './steps/idle-watch-memory.js';
import { list } from './steps/list.js';
import { priorityAndFairness } from './steps/priority-and-fairness.js';
import { representations } from './steps/representations.js';
import { watch, watchViaEtcd } from './steps/watch.js';

/** In the order they run. */
const steps: BenchStep[] = [
  createsGets,
  list,
  representations,
  watch,
  watchViaEtcd,
  idleWatchMemory,
  authorizationCost,
  auditWebhookDown,
  admission,
  apply,
  customResources,
  connect,
  priorityAndFairness,
  apfFlood,
  apfOverload,
];

const onlySteps = process.env['BENCH_ONLY']
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const report = new Report();
let suite: BenchSuite | undefined;

const unknown = onlySteps?.filter((name) => !steps.some((s) => s.name === name)) ?? [];
if (unknown.length) {
  const names = steps.map((s) => s.name).join(', ');
  console.error(`BENCH_ONLY: no step ${unknown.join(', ')}; the steps are: ${names}`);
  process.exit(2);
}

async function main(): Promise<void> {
  try {
    suite = await startBenchSuite({
      ...(process.env['BENCH_CPU_PROF'] ? { cpuProfDir: process.env['BENCH_CPU_PROF'] } : {}),
      nodeFlags: process.env['BENCH_NODE_FLAGS']?.split(' ').filter(Boolean) ?? [],
    });
    console.log('cluster ready');
    const ctx = suite.context(report);
    for (const step of steps) {
      if (onlySteps && !onlySteps.includes(step.name)) continue;
      try {
        await step.run(ctx);
      } catch (err) {
        const failed = { metric: `${step.name}: FAILED`, orch: '-', baseline: '-', ratio: '-' };
        report.rows.push({ ...failed, target: '-', pass: false });
        const why = err instanceof Error ? (err.stack ?? err.message) : String(err);
        report.notes.push(`${step.name} failed: ${why}`);
        report.failed = true;
      }
      suite.checkRunning();
      await suite.stopExtraGateways();
    }
  } finally {
    await suite?.stop(report);
  }
  report.print();
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    suite?.launcher.killAll();
    process.exit(130);
  });
}

main().then(
  () => process.exit(report.failed ? 1 : 0),
  (err: unknown) => {
    suite?.launcher.killAll();
    report.failed = true;
    report.print();
    console.error('bench aborted:', err);
    process.exit(1);
  }
);
