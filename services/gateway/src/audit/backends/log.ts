// The log backend (--audit-log-*): one line per event, JSON or legacy, to a rotating file or
// standard output ("-"). Blocking as upstream's default: the line is written before the request
// goes on; blocking-strict fails the request when its RequestReceived line cannot be written.
import type { AuditEvent } from '../event.js';
import type { AuditMetrics } from '../event.js';
import type { AuditBackend } from './backend.js';
import { blockingBackend } from './backend.js';
import { legacyLine } from './legacy-format.js';
import { RotatingFile } from './rotating-file.js';
import type { RotationOptions } from './rotating-file.js';

export interface LogBackendOptions extends RotationOptions {
  path: string;
  format: 'json' | 'legacy';
}

export function logBackend(
  o: LogBackendOptions,
  strict: boolean,
  metrics?: AuditMetrics
): AuditBackend {
  const file = o.path === '-' ? undefined : new RotatingFile(o.path, o);
  const line = o.format === 'legacy' ? legacyLine : (e: AuditEvent) => JSON.stringify(e);
  const backend = blockingBackend(
    'log',
    (events) => {
      const text = events.map((e) => `${line(e)}\n`).join('');
      if (file) file.write(text);
      else process.stdout.write(text);
    },
    strict,
    metrics
  );
  return { ...backend, shutdown: () => Promise.resolve(file?.close()) };
}
