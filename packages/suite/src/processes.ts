import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

/**
 * Every backend process the harness spawned and that has not exited yet. On process exit the
 * survivors are SIGKILLed, so a failing or interrupted test run never leaks etcd or NATS.
 */
const children = new Set<ChildProcess>();
/** Temporary directories to remove on exit (after their processes are killed). */
const tempDirs = new Set<string>();
let exitHookInstalled = false;

function cleanUpOnExit(): void {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  children.clear();
  for (const dir of tempDirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort
    }
  }
  tempDirs.clear();
}

function installExitHook(): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', cleanUpOnExit);
  }
}

/** Tracks `child` until it exits; it is SIGKILLed if the test process exits first. */
export function registerProcess(child: ChildProcess): void {
  installExitHook();
  if (child.exitCode !== null || child.signalCode !== null) return;
  children.add(child);
  child.once('exit', () => children.delete(child));
}

/** Removes `dir` when the test process exits, unless {@link unregisterTempDir} was called. */
export function registerTempDir(dir: string): void {
  installExitHook();
  tempDirs.add(dir);
}

/** Forgets a directory registered with {@link registerTempDir} (the caller removed it). */
export function unregisterTempDir(dir: string): void {
  tempDirs.delete(dir);
}

/** The number of tracked processes still running. */
export function runningProcessCount(): number {
  return children.size;
}

/** Whether `child` has exited. */
export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * Sends `signal` and resolves once the child has exited; escalates to SIGKILL after
 * `timeoutMs` (default 10 s).
 */
export async function stopProcess(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
  timeoutMs = 10_000
): Promise<void> {
  if (hasExited(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
    timer.unref();
  });
  try {
    if ((await Promise.race([exited, timedOut])) === 'timeout') {
      child.kill('SIGKILL');
      await exited;
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Keeps the last `maxBytes` of a stream's output (e.g. a server's stderr) for error messages.
 */
export class OutputTail {
  #text = '';
  constructor(private readonly maxBytes = 4096) {}

  append(chunk: Buffer | string): void {
    this.#text = (this.#text + chunk.toString()).slice(-this.maxBytes);
  }

  toString(): string {
    return this.#text;
  }
}
