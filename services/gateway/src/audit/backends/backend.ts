// What the audit filter hands events to (upstream's audit.Backend): each backend decides whether
// it writes at once (blocking) or buffers (batch); shutdown flushes what it holds.
// processEvents answers whether the events were stored (a promise while a blocking backend
// sends them): false only from a blocking-strict backend that failed, and the filter then fails
// the request at RequestReceived, as upstream's does.
import type { AuditEvent, AuditMetrics } from '../event.js';

export interface AuditBackend {
  processEvents(...events: AuditEvent[]): boolean | Promise<boolean>;
  shutdown(): Promise<void>;
}

/** Every event to every backend; stored when every backend stored it. */
export function unionBackend(backends: AuditBackend[]): AuditBackend | undefined {
  if (backends.length <= 1) return backends[0];
  return {
    processEvents: (...events) => {
      const results = backends.map((b) => b.processEvents(...events));
      if (results.every((r) => typeof r === 'boolean')) return results.every(Boolean);
      return Promise.all(results).then((all) => all.every(Boolean));
    },
    shutdown: async () => void (await Promise.all(backends.map((b) => b.shutdown()))),
  };
}

/** How a backend's events leave (--audit-log-mode, --audit-webhook-mode). */
export type AuditMode = 'batch' | 'blocking' | 'blocking-strict';

/**
 * The blocking modes over a sender (upstream's ignoreErrorsBackend, and the bare delegate for
 * blocking-strict): the request waits while its events are sent. A failure is counted in
 * apiserver_audit_error_total{plugin}; blocking lets the request go on, blocking-strict
 * answers that the events were not stored.
 */
export function blockingBackend(
  plugin: string,
  send: (events: AuditEvent[]) => Promise<void> | void,
  strict: boolean,
  metrics?: AuditMetrics
): AuditBackend {
  const failed = (n: number): boolean => {
    metrics?.errors.inc({ plugin }, n);
    return !strict;
  };
  return {
    processEvents: (...events) => {
      try {
        const sent = send(events);
        if (!sent) return true;
        return sent.then(
          () => true,
          () => failed(events.length)
        );
      } catch {
        return failed(events.length);
      }
    },
    shutdown: () => Promise.resolve(),
  };
}
