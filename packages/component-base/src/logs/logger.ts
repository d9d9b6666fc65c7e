// Structured logs: one JSON object per line on stderr (klog's structured form, as JSON).

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** The levels, most verbose first. */
export const logLevels: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

export function isLogLevel(value: string): value is LogLevel {
  return (logLevels as readonly string[]).includes(value);
}

// The level set at runtime (upstream's /debug/flags/v sets klog's process-wide verbosity): once
// set it replaces every logger's own level in this process.
let runtimeLevel: LogLevel | undefined;

/** Sets the level of every logger of the process (the operational server's /debug/flags/v). */
export function setRuntimeLogLevel(level: LogLevel): void {
  runtimeLevel = level;
}

/** The level set at runtime, if any. */
export function runtimeLogLevel(): LogLevel | undefined {
  return runtimeLevel;
}

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export function createLogger(
  component: string,
  level: LogLevel = (process.env['ORCH_LOG_LEVEL'] as LogLevel | undefined) ?? 'info',
  base: Record<string, unknown> = {}
): Logger {
  const own = order[level] ?? order.info;
  const write = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>): void => {
    const min = runtimeLevel === undefined ? own : order[runtimeLevel];
    if (order[lvl] < min) return;
    const line: Record<string, unknown> = {
      ts: new Date().toISOString(),
      level: lvl,
      component,
      msg,
      ...base,
      ...fields,
    };
    for (const [k, v] of Object.entries(line)) if (v instanceof Error) line[k] = v.message;
    process.stderr.write(`${JSON.stringify(line)}\n`);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger(component, level, { ...base, ...fields }),
  };
}
