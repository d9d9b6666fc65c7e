// The one launcher of the suite's processes (make run, the tests' startSuite, the bench): spawns
// each process with its output in `<logDir>/<name>.log` (the previous one kept as `.log.1`),
// waits until it is ready, notices a process that exits on its own, and stops them all in
// reverse start order (SIGTERM, then SIGKILL after a grace period).
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProcessSpec } from './process-spec.js';
import { registerProcess } from './processes.js';
import { describeReadiness, probeReadiness } from './readiness.js';

export interface LauncherOptions {
  /** Where `<name>.log` go; created if missing. */
  logDir: string;
  cwd?: string;
  /**
   * Each child in its own process group, so that a terminal's Ctrl-C reaches only the launcher,
   * which stops the children in order (make run). Default false: a test runner's Ctrl-C also
   * reaches them.
   */
  detached?: boolean;
  /** Progress lines: started, ready, stopped. Default: none. */
  say?: (line: string) => void;
  /** A process exited while the launcher was not stopping (at start or later). */
  onUnexpectedExit?: (p: LaunchedProcess) => void;
  /**
   * Which processes are started again when they exit on their own after they were ready, as
   * their deployment's restart policy would (the controllers exit on a lost lease, as
   * kube-controller-manager does). Default: none. A stop() of the one process counts as an exit
   * on its own.
   */
  restartAfterExit?: (spec: ProcessSpec) => boolean;
  /** SIGTERM to SIGKILL, per process. Default 10 s. */
  stopGraceMs?: number;
}

export interface LaunchedProcess {
  readonly spec: ProcessSpec;
  readonly name: string;
  readonly child: ChildProcess;
  /** -1 when it could not be spawned. */
  readonly pid: number;
  readonly logFile: string;
  /** Resolves once the process has exited (or failed to spawn). */
  readonly exited: Promise<void>;
  /** How it ended ('exited with code 1', 'was killed by SIGKILL', ...); undefined while running. */
  exitReason(): string | undefined;
  /** The last `lines` lines of its log. */
  logTail(lines?: number): string;
  /** Sends `signal` and waits for the exit (SIGKILL after the grace period). */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** A process exited before it was ready, or was not ready in time. */
export class LaunchError extends Error {
  override readonly name = 'LaunchError';
  constructor(
    message: string,
    readonly processName: string,
    readonly logTail: string,
    /** Its log says it could not bind a port: starting again on other ports may work. */
    readonly portInUse: boolean
  ) {
    super(logTail ? `${message}\n--- last lines of ${processName}.log ---\n${logTail}` : message);
  }
}

/** The launcher was stopped while it was starting processes. */
export class LaunchAbortedError extends Error {
  override readonly name = 'LaunchAbortedError';
  constructor() {
    super('the launcher was stopped during start-up');
  }
}

const portInUse = /address already in use|EADDRINUSE|bind: address/i;
const pollMs = 100;
const tailLines = 30;

export class Launcher {
  readonly #opts: LauncherOptions;
  readonly #procs: LaunchedProcess[] = [];
  /** The processes that were ready once: an exit of these may be restarted. */
  readonly #wasReady = new WeakSet<LaunchedProcess>();
  #stopping = false;
  #stopped: Promise<void> | undefined;

  constructor(opts: LauncherOptions) {
    this.#opts = opts;
    mkdirSync(opts.logDir, { recursive: true });
  }

  /** Every process started, in start order. */
  get processes(): readonly LaunchedProcess[] {
    return this.#procs;
  }

  get stopping(): boolean {
    return this.#stopping;
  }

  get(name: string): LaunchedProcess | undefined {
    return this.#procs.find((p) => p.name === name);
  }

  /** The first process that has exited, if any. */
  firstExited(): LaunchedProcess | undefined {
    return this.#procs.find((p) => p.exitReason() !== undefined);
  }

  /** Starts the stages in order: each stage's processes together, the next once all are ready. */
  async startStages(stages: readonly (readonly ProcessSpec[])[]): Promise<void> {
    for (const stage of stages) await this.startStage(stage);
  }

  /** Spawns every process of `stage`, then waits until each is ready. */
  async startStage(stage: readonly ProcessSpec[]): Promise<LaunchedProcess[]> {
    const started = stage.map((spec) => this.spawn(spec));
    for (const p of started) await this.waitReady(p);
    return started;
  }

  /** Spawns one process, without waiting for it to be ready. */
  spawn(spec: ProcessSpec): LaunchedProcess {
    if (this.get(spec.name)) throw new Error(`a process named ${spec.name} is already running`);
    const p = this.#spawn(spec, 'w');
    this.#procs.push(p);
    return p;
  }

  /**
   * Starts an exited process again with its same spec (command, flags, ports, data), in its
   * place in the stop order, its output appended to its log; without waiting for it to be ready
   * ({@link waitReady}). A fault test's restart after a kill.
   */
  respawn(name: string): LaunchedProcess {
    const i = this.#procs.findIndex((p) => p.name === name);
    const old = this.#procs[i];
    if (!old) throw new Error(`no process named ${name} was started`);
    if (old.exitReason() === undefined) throw new Error(`${name} is still running`);
    const p = this.#spawn(old.spec, 'a');
    this.#procs[i] = p;
    return p;
  }

  #spawn(spec: ProcessSpec, logMode: 'w' | 'a'): LaunchedProcess {
    if (this.#stopping) throw new LaunchAbortedError();
    const logFile = join(this.#opts.logDir, `${spec.name}.log`);
    if (logMode === 'w' && existsSync(logFile)) renameSync(logFile, `${logFile}.1`);
    const fd = openSync(logFile, logMode);
    let child: ChildProcess;
    try {
      child = spawn(spec.command, spec.args, {
        cwd: this.#opts.cwd,
        env: spec.env ?? process.env,
        stdio: ['ignore', fd, fd],
        detached: this.#opts.detached ?? false,
      });
    } finally {
      closeSync(fd);
    }
    registerProcess(child);
    const p = launchedProcess(spec, child, logFile, {
      graceMs: this.#opts.stopGraceMs ?? 10_000,
      onExit: (self) => {
        if (this.#stopping) return;
        this.#opts.onUnexpectedExit?.(self);
        if (this.#wasReady.has(self) && this.#opts.restartAfterExit?.(self.spec)) {
          void this.#restart(self);
        }
      },
      say: (line) => this.#opts.say?.(line),
    });
    this.#opts.say?.(`started ${spec.name} (pid ${child.pid ?? '?'}), log ${logFile}`);
    return p;
  }

  /** Polls `p`'s readiness until all of it holds; fails when `p` exits, times out or on stop. */
  async waitReady(p: LaunchedProcess): Promise<void> {
    const startedAt = Date.now();
    const deadline = startedAt + p.spec.timeoutMs;
    for (const r of p.spec.ready) {
      let last = 'no answer yet';
      for (;;) {
        if (this.#stopping) throw new LaunchAbortedError();
        const exit = p.exitReason();
        if (exit !== undefined) {
          const tail = p.logTail(tailLines);
          const message = `${p.name} ${exit} before it was ready`;
          throw new LaunchError(message, p.name, tail, portInUse.test(tail));
        }
        try {
          if (await probeReadiness(r, startedAt)) break;
          last = 'not ready yet';
        } catch (err) {
          last = err instanceof Error ? err.message : String(err);
        }
        if (Date.now() > deadline) {
          const what = `${describeReadiness(r)}: ${last}`;
          const tail = p.logTail(tailLines);
          throw new LaunchError(
            `${p.name} was not ready after ${p.spec.timeoutMs / 1000} s (${what})`,
            p.name,
            tail,
            portInUse.test(tail)
          );
        }
        await sleep(pollMs);
      }
    }
    if (p.exitReason() === undefined) {
      this.#wasReady.add(p);
      this.#opts.say?.(`${p.name} is ready`);
    }
  }

  async #restart(exited: LaunchedProcess): Promise<void> {
    this.#opts.say?.(`${exited.name} ${exited.exitReason()}: starting it again`);
    try {
      await this.waitReady(this.respawn(exited.name));
    } catch (err) {
      if (err instanceof LaunchAbortedError) return;
      this.#opts.say?.(`${exited.name} did not start again: ${(err as Error).message}`);
    }
  }

  /** Stops every process in reverse start order, each SIGTERM then SIGKILL. Runs once. */
  stop(): Promise<void> {
    this.#stopping = true;
    this.#stopped ??= (async () => {
      for (const p of [...this.#procs].reverse()) {
        if (p.exitReason() !== undefined) continue;
        await p.stop('SIGTERM');
        this.#opts.say?.(`stopped ${p.name}`);
      }
    })();
    return this.#stopped;
  }

  /** SIGKILL to every process still running, now (a second Ctrl-C, an aborted run). */
  killAll(): void {
    this.#stopping = true;
    for (const p of this.#procs) {
      if (p.exitReason() === undefined) kill(p.child, 'SIGKILL');
    }
  }
}

function launchedProcess(
  spec: ProcessSpec,
  child: ChildProcess,
  logFile: string,
  opts: { graceMs: number; onExit: (p: LaunchedProcess) => void; say: (line: string) => void }
): LaunchedProcess {
  let reason: string | undefined;
  let resolveExited: () => void = () => undefined;
  const exited = new Promise<void>((resolve) => (resolveExited = resolve));
  const p: LaunchedProcess = {
    spec,
    name: spec.name,
    child,
    pid: child.pid ?? -1,
    logFile,
    exited,
    exitReason: () => reason,
    logTail: (lines = tailLines) => logTail(logFile, lines),
    async stop(signal = 'SIGTERM') {
      if (reason !== undefined) return;
      kill(child, signal);
      const timer = sleep(opts.graceMs, 'timeout', { ref: false });
      if ((await Promise.race([exited, timer])) === 'timeout') {
        opts.say(`${spec.name} did not stop within ${opts.graceMs / 1000} s: SIGKILL`);
        kill(child, 'SIGKILL');
        await exited;
      }
    },
  };
  const ended = (how: string): void => {
    if (reason !== undefined) return;
    reason = how;
    resolveExited();
    opts.onExit(p);
  };
  child.once('error', (err) => ended(`could not be started: ${err.message}`));
  child.once('exit', (code, signal) =>
    ended(signal ? `was killed by ${signal}` : `exited with code ${code}`)
  );
  return p;
}

function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    child.kill(signal);
  } catch {
    // already gone
  }
}

function logTail(file: string, lines: number): string {
  try {
    const text = readFileSync(file, 'utf8').trimEnd();
    return text ? text.split('\n').slice(-lines).join('\n') : '';
  } catch {
    return '';
  }
}
