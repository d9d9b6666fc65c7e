// The answers of /debug/flags/v and /debug/pprof/*, independent of the HTTP framework: the
// operational server's express app and the gateway's mux serve the same (upstream's
// routes.DebugFlags and routes.Profiling, installed together under --profiling).
import { isLogLevel, runtimeLogLevel, setRuntimeLogLevel } from '../logs/index.js';
import type { LogLevel, Logger } from '../logs/index.js';
import { cpuProfile, defaultProfileSeconds, heapSnapshot, maxProfileSeconds } from './profiling.js';

export interface DebugAnswer {
  code: number;
  headers: Record<string, string>;
  body: string;
}

const plain = { 'Content-Type': 'text/plain; charset=utf-8' };

/** `GET /debug/flags/v`: the level set at runtime, else the one the process started with. */
export function readLogLevel(startLevel: LogLevel): DebugAnswer {
  return { code: 200, headers: plain, body: runtimeLogLevel() ?? startLevel };
}

/** `PUT /debug/flags/v`: the body is the new level of every logger of the process. */
export function writeLogLevel(body: string, log: Logger): DebugAnswer {
  const level = body.trim();
  if (!isLogLevel(level)) {
    return {
      code: 400,
      headers: plain,
      body: `invalid log level ${JSON.stringify(level)}: debug, info, warn or error\n`,
    };
  }
  setRuntimeLogLevel(level);
  log.info('log level set at runtime', { level });
  return { code: 200, headers: plain, body: `successfully set the log level to ${level}` };
}

/** `GET /debug/pprof/profile?seconds=N`: a CPU profile, `.cpuprofile` JSON. */
export async function cpuProfileAnswer(
  seconds: string | null | undefined,
  component: string,
  signal: AbortSignal
): Promise<DebugAnswer> {
  const n =
    seconds === null || seconds === undefined || seconds === ''
      ? defaultProfileSeconds
      : Number(seconds);
  if (!Number.isFinite(n) || n <= 0 || n > maxProfileSeconds) {
    return {
      code: 400,
      headers: plain,
      body: `seconds must be a number in (0, ${maxProfileSeconds}]\n`,
    };
  }
  const profile = await cpuProfile(n, signal);
  return {
    code: 200,
    headers: {
      'Content-Type': 'application/json',
      'Content-Disposition': `attachment; filename="${component}.cpuprofile"`,
    },
    body: JSON.stringify(profile),
  };
}

/** The headers of `GET /debug/pprof/heap`, whose body {@link heapSnapshot} writes. */
export function heapSnapshotHeaders(component: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'Content-Disposition': `attachment; filename="${component}.heapsnapshot"`,
  };
}

export { heapSnapshot };
