// The printed tables: one row per figure (orch beside its baseline, the ratio, the target and
// whether it was met); the CPU each process spent per operation; then the missed targets and
// the notes.

/** µs of CPU per operation, by process name (`bench` is the bench's own process). */
export type CpuByProcess = Record<string, number>;

/** The processes that are not orch's own: the database and the load generator. */
const notOrch = new Set(['bench', 'etcd']);

/** µs per operation of orch's own processes: every process of the suite but etcd. */
export function orchUs(us: CpuByProcess): number {
  return Object.entries(us).reduce((sum, [name, v]) => (notOrch.has(name) ? sum : sum + v), 0);
}

export interface Row {
  metric: string;
  orch: string;
  baseline: string;
  ratio: string;
  target: string;
  /** undefined: a figure without a target ('info'). */
  pass: boolean | undefined;
}

export class Report {
  readonly rows: Row[] = [];
  readonly notes: string[] = [];
  /** CPU µs per operation by process, one entry per operation measured. */
  readonly cpu: { operation: string; us: CpuByProcess }[] = [];
  /** Set when a step failed: `make bench` then exits non-zero. */
  failed = false;

  print(): void {
    const head: Row = {
      metric: 'metric',
      orch: 'orch',
      baseline: 'baseline',
      ratio: 'ratio',
      target: 'target',
      pass: undefined,
    };
    const result = (r: Row): string =>
      r === head ? 'result' : r.pass === undefined ? 'info' : r.pass ? 'pass' : 'MISSED';
    const cells = (r: Row) => [r.metric, r.orch, r.baseline, r.ratio, r.target, result(r)];
    const all = [head, ...this.rows].map(cells);
    const widths = all[0]!.map((_, c) => Math.max(...all.map((r) => r[c]!.length)));
    const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
    console.log('\n' + line(all[0]!));
    console.log(widths.map((w) => '-'.repeat(w)).join('-+-'));
    for (const r of all.slice(1)) console.log(line(r));
    this.printCpu();
    const missed = this.rows.filter((r) => r.pass === false);
    console.log('');
    for (const r of missed) console.log(`MISSED: ${r.metric}: orch ${r.orch}, target ${r.target}`);
    if (missed.length === 0 && !this.failed) console.log('all targets met');
    for (const n of this.notes) console.log(`note: ${n}`);
  }

  /**
   * CPU µs per operation by process: orch's own processes (gateways, storage, admission,
   * authorizer, certificates, NATS...) each and summed, then etcd and the bench client apart.
   */
  private printCpu(): void {
    if (this.cpu.length === 0) return;
    const names = [...new Set(this.cpu.flatMap((c) => Object.keys(c.us)))].filter(
      (n) => n !== 'bench' && n !== 'etcd'
    );
    const head = ['CPU µs per operation', ...names, 'orch', 'etcd', 'bench'];
    const all = [
      head,
      ...this.cpu.map(({ operation, us }) => [
        operation,
        ...names.map((n) => (us[n] === undefined ? '-' : f(us[n], 0))),
        f(orchUs(us), 0),
        us['etcd'] === undefined ? '-' : f(us['etcd'], 0),
        us['bench'] === undefined ? '-' : f(us['bench'], 0),
      ]),
    ];
    const widths = head.map((_, c) => Math.max(...all.map((r) => r[c]!.length)));
    const line = (r: string[]) =>
      r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ');
    console.log('\n' + line(head));
    console.log(widths.map((w) => '-'.repeat(w)).join('-+-'));
    for (const r of all.slice(1)) console.log(line(r));
    console.log('(orch: every process of the suite but etcd and the bench client)');
  }
}

/** A number for the table: `digits` decimals, or its name when not finite (NaN, Infinity). */
export function f(n: number, digits = 1): string {
  return Number.isFinite(n) ? n.toFixed(digits) : String(n);
}

/**
 * The row of a CPU target: µs per operation of orch's own processes, beside what the raw
 * operation cost every process (etcd and the bench client) in the same run.
 */
export function cpuRow(
  metric: string,
  us: CpuByProcess,
  rawUs: CpuByProcess,
  rawName: string,
  targetUs: number
): Row {
  const orch = orchUs(us);
  const raw = Object.values(rawUs).reduce((a, b) => a + b, 0);
  return {
    metric,
    orch: f(orch, 0),
    baseline: `${f(raw, 0)} (${rawName}, all processes)`,
    ratio: f(orch / raw, 1),
    target: `<= ${targetUs} µs`,
    pass: orch <= targetUs,
  };
}
