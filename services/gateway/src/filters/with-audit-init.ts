import { randomUUID } from 'node:crypto';
import type { Handler } from '../http/handler.js';
import { withAuditId, withStartTime } from '../request/context.js';

/** Gives each request an audit ID (echoed as `Audit-Id`) and its start time (k8s WithAuditInit). */
export const withAuditInit =
  (next: Handler): Handler =>
  (req, res) => {
    const id = (req.headers['audit-id'] as string | undefined) ?? randomUUID();
    withAuditId(req, id);
    withStartTime(req, performance.now());
    res.setHeader('Audit-Id', id);
    return next(req, res);
  };
