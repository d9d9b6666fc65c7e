// The truncating backend (upstream's plugin/pkg/audit/truncate, --audit-{log,webhook}-truncate-*):
// an event over maxEventSize bytes (its JSON) loses its request and response objects, and says
// so in the annotation audit.orch.io/truncated; one still too large is dropped and counted. The
// events of one call go on to the delegate in batches of at most maxBatchSize bytes.
import type { AuditEvent, AuditMetrics } from '../event.js';
import { levelAtLeast } from '../policy/types.js';
import type { AuditBackend } from './backend.js';

export interface TruncateOptions {
  maxEventSize: number;
  maxBatchSize: number;
}

export const truncatedAnnotation = 'audit.orch.io/truncated';

const sizeOf = (e: AuditEvent): number => Buffer.byteLength(JSON.stringify(e));

function truncated(e: AuditEvent): AuditEvent {
  const { requestObject: _req, responseObject: _res, ...rest } = e;
  return { ...rest, annotations: { ...e.annotations, [truncatedAnnotation]: 'true' } };
}

export function truncatingBackend(
  delegate: AuditBackend,
  o: TruncateOptions,
  metrics?: AuditMetrics
): AuditBackend {
  return {
    processEvents: (...events) => {
      const results: (boolean | Promise<boolean>)[] = [];
      let batch: AuditEvent[] = [];
      let batchSize = 0;
      for (let e of events) {
        let size = sizeOf(e);
        if (size > o.maxEventSize && levelAtLeast(e.level, 'Request')) {
          e = truncated(e);
          size = sizeOf(e);
        }
        if (size > o.maxEventSize) {
          metrics?.errors.inc({ plugin: 'truncate' });
          continue;
        }
        if (batch.length > 0 && batchSize + size > o.maxBatchSize) {
          results.push(delegate.processEvents(...batch));
          batch = [];
          batchSize = 0;
        }
        batch.push(e);
        batchSize += size;
      }
      if (batch.length > 0) results.push(delegate.processEvents(...batch));
      if (results.every((r) => typeof r === 'boolean')) return results.every(Boolean);
      return Promise.all(results).then((all) => all.every(Boolean));
    },
    shutdown: () => delegate.shutdown(),
  };
}
