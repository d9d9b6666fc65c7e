// What the audit filter hands events to (upstream's audit.Backend): each backend decides whether
// it writes at once (blocking) or buffers (batch); shutdown flushes what it holds.
import type { AuditEvent } from '../event.js';

export interface AuditBackend {
  processEvents(...events: AuditEvent[]): void;
  shutdown(): Promise<void>;
}

/** Every event to every backend. */
export function unionBackend(backends: AuditBackend[]): AuditBackend | undefined {
  if (backends.length <= 1) return backends[0];
  return {
    processEvents: (...events) => backends.forEach((b) => b.processEvents(...events)),
    shutdown: async () => void (await Promise.all(backends.map((b) => b.shutdown()))),
  };
}
