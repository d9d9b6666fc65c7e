// The printed table: one row per figure (orch beside its baseline, the ratio, the target and
// whether it was met), then the missed targets and the notes.

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
    const missed = this.rows.filter((r) => r.pass === false);
    console.log('');
    for (const r of missed) console.log(`MISSED: ${r.metric}: orch ${r.orch}, target ${r.target}`);
    if (missed.length === 0) console.log('all targets met');
    for (const n of this.notes) console.log(`note: ${n}`);
  }
}

/** A number for the table: `digits` decimals, or its name when not finite (NaN, Infinity). */
export function f(n: number, digits = 1): string {
  return Number.isFinite(n) ? n.toFixed(digits) : String(n);
}
