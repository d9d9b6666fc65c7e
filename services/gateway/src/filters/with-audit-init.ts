import { randomUUID } from 'node:crypto';
import type { Handler } from '../http/handler.js';
import { withAuditId, withStartTime } from '../request/context.js';

/**
 * A random UUID as one flat string: randomUUID's is a chain of ~20 concatenated pieces (about
 * 1 KB), kept as long as the response's headers, which for a watch is its whole life.
 */
const flatUuid = (): string => Buffer.from(randomUUID(), 'latin1').toString('latin1');

/** Gives each request an audit ID (echoed as `Audit-Id`) and its start time (k8s WithAuditInit). */
export const withAuditInit =
  (next: Handler): Handler =>
  (req, res) => {
    const id = (req.headers['audit-id'] as string | undefined) ?? flatUuid();
    withAuditId(req, id);
    withStartTime(req, performance.now());
    res.setHeader('Audit-Id', id);
    return next(req, res);
  };
