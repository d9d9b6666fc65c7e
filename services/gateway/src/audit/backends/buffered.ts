// The batching backend (upstream's plugin/pkg/audit/buffered): events wait in a bounded buffer
// and leave in batches of at most maxBatchSize, or after maxBatchWait when fewer came, at most
// throttleQps batches a second (burst throttleBurst). processEvents never waits: an event that
// finds the buffer full is dropped and counted in apiserver_audit_error_total{plugin}, so a slow
// or dead delegate never slows or fails a request. Batches are sent concurrently, as upstream's.
import type { AuditEvent, AuditMetrics } from '../event.js';
import type { AuditBackend } from './backend.js';

/** How long shutdown waits for batches in flight. */
const shutdownWaitMs = 5_000;

export interface BatchOptions {
  bufferSize: number;
  maxBatchSize: number;
  maxBatchWaitMs: number;
  throttleEnable: boolean;
  throttleQps: number;
  throttleBurst: number;
}

export function bufferedBackend(
  plugin: string,
  send: (events: AuditEvent[]) => Promise<void>,
  o: BatchOptions,
  metrics?: AuditMetrics
): Omit<AuditBackend, 'processEvents'> & { processEvents(...events: AuditEvent[]): true } {
  const buffer: AuditEvent[] = [];
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let tokens = o.throttleBurst;
  let lastRefill = Date.now();
  let draining: Promise<void> | undefined;
  let stopped = false;
  let throttling = o.throttleEnable;

  /** Waits for a token of the throttle's bucket (none when throttling is off). */
  const throttle = async (): Promise<void> => {
    if (!throttling) return;
    for (;;) {
      const now = Date.now();
      tokens = Math.min(o.throttleBurst, tokens + ((now - lastRefill) / 1000) * o.throttleQps);
      lastRefill = now;
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      await new Promise((r) => setTimeout(r, ((1 - tokens) / o.throttleQps) * 1000));
    }
  };

  const dispatch = (batch: AuditEvent[]): void => {
    const lost = batch.length; // the events themselves are not held while the send retries
    const p = send(batch)
      .catch(() => void metrics?.errors.inc({ plugin }, lost))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };

  /** Sends full batches, then the rest when the wait is over (or at shutdown). */
  const drain = (all: boolean): Promise<void> =>
    (draining ??= (async () => {
      try {
        while (buffer.length >= o.maxBatchSize || (all && buffer.length > 0)) {
          await throttle();
          dispatch(buffer.splice(0, o.maxBatchSize));
        }
      } finally {
        draining = undefined;
      }
    })());

  const arm = (): void => {
    if (timer || stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      void drain(true).then(() => buffer.length > 0 && arm());
    }, o.maxBatchWaitMs);
    timer.unref();
  };

  return {
    processEvents: (...events) => {
      for (const e of events) {
        if (stopped || buffer.length >= o.bufferSize) {
          metrics?.errors.inc({ plugin });
          continue;
        }
        buffer.push(e);
      }
      if (buffer.length >= o.maxBatchSize) void drain(false);
      if (buffer.length > 0) arm();
      // Stored or counted as lost: batch mode never fails a request (upstream's answers true).
      return true;
    },
    shutdown: async () => {
      stopped = true;
      clearTimeout(timer);
      await draining;
      throttling = false;
      await drain(true);
      // A dead delegate's retries are not waited out: what is still in flight then is lost.
      const sent = Promise.all([...inFlight]);
      let t: NodeJS.Timeout | undefined;
      await Promise.race([sent, new Promise((r) => (t = setTimeout(r, shutdownWaitMs)))]);
      clearTimeout(t);
    },
  };
}
