// The log backend (--audit-log-*): one line per event, JSON or legacy, to a rotating file or
// standard output ("-"). Blocking by default as upstream's: the line is written before the
// request goes on; batch mode buffers it (buffered.ts).
import type { AuditEvent } from '../event.js';
import type { AuditMetrics } from '../event.js';
import type { AuditBackend } from './backend.js';
import { legacyLine } from './legacy-format.js';
import { RotatingFile } from './rotating-file.js';
import type { RotationOptions } from './rotating-file.js';

export interface LogBackendOptions extends RotationOptions {
  path: string;
  format: 'json' | 'legacy';
}

export function logBackend(o: LogBackendOptions, metrics?: AuditMetrics): AuditBackend {
  const file = o.path === '-' ? undefined : new RotatingFile(o.path, o);
  const line = o.format === 'legacy' ? legacyLine : (e: AuditEvent) => JSON.stringify(e);
  return {
    processEvents: (...events) => {
      for (const e of events) {
        try {
          const text = `${line(e)}\n`;
          if (file) file.write(text);
          else process.stdout.write(text);
        } catch {
          metrics?.errors.inc({ plugin: 'log' });
        }
      }
    },
    shutdown: () => Promise.resolve(file?.close()),
  };
}
