import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';

import { OutputTail, hasExited, probeReadiness, registerProcess } from '@orch/suite';
import type { ProcessSpec } from '@orch/suite';

import { refuseInUnitTier } from './test-tier.js';
import { waitFor } from './wait-for.js';

export interface SpawnBackendOptions {
  /** For messages, e.g. `etcd`. */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Resolves true once the backend serves. */
  ready: () => Promise<boolean>;
  timeoutMs: number;
}

export interface SpawnedBackend {
  child: ChildProcess;
  output: OutputTail;
}

/** Thrown when a backend could not bind a port it was given (the free-port race was lost). */
export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
}

const portInUse = /address already in use|EADDRINUSE|bind: address/i;

/**
 * Spawns a backend (registered for kill-on-exit), collects its stdout/stderr tail and waits until
 * `ready`. On failure the process is killed and the error carries the output tail; a port clash
 * is reported as {@link PortInUseError} so the caller can retry with new ports.
 */
export async function spawnBackend(opts: SpawnBackendOptions): Promise<SpawnedBackend> {
  refuseInUnitTier(opts.name);
  const child = spawn(opts.command, opts.args, {
    env: opts.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  registerProcess(child);
  const output = new OutputTail();
  child.stdout?.on('data', (chunk: Buffer) => output.append(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.append(chunk));
  let spawnError: Error | undefined;
  child.once('error', (err) => {
    spawnError = err;
  });

  try {
    await waitFor(`${opts.name} (${opts.command})`, opts.ready, {
      timeoutMs: opts.timeoutMs,
      abortReason: () => {
        if (spawnError) return `failed to start: ${spawnError.message}`;
        if (hasExited(child)) {
          return `exited with ${child.exitCode ?? child.signalCode} before becoming ready`;
        }
        return undefined;
      },
    });
    return { child, output };
  } catch (err) {
    if (!hasExited(child)) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    }
    const message = `${(err as Error).message}\n--- ${opts.name} output (tail) ---\n${output}`;
    throw portInUse.test(output.toString())
      ? new PortInUseError(message)
      : new Error(message, { cause: err });
  }
}

/**
 * Spawns one process as @orch/suite describes it (`etcdProcess`, `natsProcess`) by
 * {@link spawnBackend}: ready once every readiness of the spec holds.
 */
export function spawnProcessSpec(
  spec: ProcessSpec,
  name: string,
  timeoutMs: number
): Promise<SpawnedBackend> {
  const startedAt = Date.now();
  return spawnBackend({
    name,
    command: spec.command,
    args: spec.args,
    env: spec.env,
    ready: async () => {
      for (const r of spec.ready) if (!(await probeReadiness(r, startedAt))) return false;
      return true;
    },
    timeoutMs,
  });
}

/** Runs `attempt` up to `attempts` times while it fails with {@link PortInUseError}. */
export async function retryOnPortInUse<T>(attempt: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof PortInUseError) || i >= attempts) throw err;
    }
  }
}
