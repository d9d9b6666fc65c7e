import type { ErrorRequestHandler } from 'express';
import { newBadRequest, newRequestEntityTooLarge } from '@orch/apimachinery/errors';
import type { Logger } from '@orch/component-base/logs';
import { writeErrorNegotiated } from '../negotiation/response-writers.js';
import { auditIdFrom } from '../request/context.js';

/** Any error escaping a handler becomes a Status; unexpected ones are logged (k8s WithPanicRecovery). */
export const withPanicRecovery =
  (log: Logger): ErrorRequestHandler =>
  (err: unknown, req, res, _next) => {
    const e = err as { type?: string; status?: number; limit?: number };
    if (e.type === 'entity.too.large') {
      return writeErrorNegotiated(
        req,
        res,
        newRequestEntityTooLarge(
          `the request body is larger than the ${e.limit ?? 0} bytes allowed`
        )
      );
    }
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.type) {
      return writeErrorNegotiated(req, res, newBadRequest(String((err as Error).message)));
    }
    if (!(err instanceof Error && err.name === 'StatusError')) {
      log.error('request failed', {
        err,
        method: req.method,
        path: req.path,
        auditId: auditIdFrom(req),
      });
    }
    writeErrorNegotiated(req, res, err);
  };
