// Structured logs: one JSON object per line on stderr (klog's structured form, as JSON).

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

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
  const min = order[level] ?? order.info;
  const write = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>): void => {
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
