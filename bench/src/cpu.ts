// Who used the machine during a step: CPU time and memory of the bench's own process and of
// every process of the suite, from /proc.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { f } from './report.js';
import type { CpuByProcess } from './report.js';
import { runFor, warmUp } from './stats.js';
import type { RunResult } from './stats.js';

export { orchUs } from './report.js';
export type { CpuByProcess } from './report.js';

/** A process to account for, by name. */
export interface AccountedProcess {
  name: string;
  pid: number;
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime, stime in clock ticks (USER_HZ 100)
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Resident memory of a process in KiB, from /proc/<pid>/status. */
export function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

/**
 * Read-like and write-like system calls a process has made so far (syscr, syscw of
 * /proc/<pid>/io): on loopback a socket write also runs the receiver's TCP path, so a process's
 * cost per operation follows how many it makes as much as what its code does.
 */
function syscalls(pid: number): { reads: number; writes: number } {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    return {
      reads: Number(/syscr: (\d+)/.exec(io)?.[1]),
      writes: Number(/syscw: (\d+)/.exec(io)?.[1]),
    };
  } catch {
    return { reads: NaN, writes: NaN };
  }
}

/** Starts counting every process's system calls; the function it returns gives them per operation, as one line. */
function startSyscallCount(processes: readonly AccountedProcess[]): (ops: number) => string {
  const before = processes.map(({ pid }) => syscalls(pid));
  return (ops) =>
    processes
      .map(({ name, pid }, k) => {
        const now = syscalls(pid);
        const per = (n: number, b: number): string => f((n - b) / Math.max(1, ops), 2);
        return `${name} ${per(now.reads, before[k]!.reads)}/${per(now.writes, before[k]!.writes)}`;
      })
      .join(', ');
}

/**
 * Starts counting the CPU of the bench and every process; the function it returns gives the µs
 * each spent per operation since, for `ops` operations.
 */
export function startCpuCount(
  processes: readonly AccountedProcess[]
): (ops: number) => CpuByProcess {
  const who: AccountedProcess[] = [{ name: 'bench', pid: process.pid }, ...processes];
  const before = who.map(({ pid }) => cpuSeconds(pid));
  return (ops) =>
    Object.fromEntries(
      who.map(({ name, pid }, k) => [
        name,
        ((cpuSeconds(pid) - before[k]!) * 1e6) / Math.max(1, ops),
      ])
    );
}

/** A measured run, on the monotonic clock V8's CPU profiles use (µs), for profile-summary.ts. */
export interface MeasuredWindow {
  label: string;
  fromUs: number;
  toUs: number;
  ops: number;
}

/** The labelled runs of cpuPerOp so far, in order. */
export const measuredWindows: MeasuredWindow[] = [];

const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/**
 * Who used the CPU during fn: µs of CPU per operation for the bench and every process. A
 * labelled run is recorded in measuredWindows, so that the profiles can be read over it.
 */
export async function cpuPerOp<T extends { ok: number }>(
  processes: readonly AccountedProcess[],
  fn: () => Promise<T>,
  label?: string
): Promise<{ result: T; perOp: string; us: CpuByProcess; syscallsPerOp: string }> {
  const count = startCpuCount(processes);
  const countSyscalls = startSyscallCount(processes);
  const fromUs = monotonicUs();
  const result = await fn();
  const us = count(result.ok);
  const syscallsPerOp = countSyscalls(result.ok);
  if (label) measuredWindows.push({ label, fromUs, toUs: monotonicUs(), ops: result.ok });
  return { result, perOp: describeCpu(us), us, syscallsPerOp };
}

/**
 * `op` run for 8 s with `concurrency` in flight after its untimed warm-up (stats.ts, warmUp), and
 * who used the CPU during the 8 s (cpuPerOp).
 */
export async function warmedCpuPerOp(
  processes: readonly AccountedProcess[],
  concurrency: number,
  op: (i: number) => Promise<void>,
  label?: string
): Promise<{ result: RunResult; perOp: string; us: CpuByProcess; syscallsPerOp: string }> {
  await warmUp(concurrency, op);
  return cpuPerOp(processes, () => runFor(8000, concurrency, op), label);
}

/** One line: each process's µs, the total, and the rate the machine's cores allow at that cost. */
export function describeCpu(us: CpuByProcess): string {
  const total = Object.values(us).reduce((a, b) => a + b, 0);
  const per = Object.entries(us).map(([name, v]) => `${name} ${f(v, 0)}`);
  // Every process shares the machine's cores: this many operations per second is the most the
  // CPU allows at this cost, whatever the concurrency.
  const cores = availableParallelism();
  return (
    `${per.join(', ')}; all processes ${f(total, 0)} µs, ` +
    `a ceiling of ${f((cores * 1e6) / total, 0)}/s on ${cores} cores`
  );
}

/**
 * The CPU µs per second each process spends with no load at all (the publisher's progress, the
 * fleet's summaries, leases, caches' resyncs), measured over `ms`: a per-operation figure
 * includes its share of this background, which depends on the run's rate, not on the operation.
 */
export async function idleCpu(
  processes: readonly AccountedProcess[],
  ms = 3000
): Promise<CpuByProcess> {
  const count = startCpuCount(processes);
  await sleep(ms);
  return count(ms / 1000);
}

/** Per-operation µs less each process's idle share over the run (`seconds`, `ops`), not below 0. */
export function netOfIdle(
  us: CpuByProcess,
  idle: CpuByProcess,
  seconds: number,
  ops: number
): CpuByProcess {
  return Object.fromEntries(
    Object.entries(us).map(([name, v]) => [
      name,
      Math.max(0, v - ((idle[name] ?? 0) * seconds) / Math.max(1, ops)),
    ])
  );
}
