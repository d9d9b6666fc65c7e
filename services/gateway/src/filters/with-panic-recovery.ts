import type { Logger } from '@orch/component-base/logs';
import type { Handler } from '../http/handler.js';
import { writeErrorNegotiated } from '../negotiation/response-writers.js';
import { auditIdFrom } from '../request/context.js';
import { requestUrl } from '../http/request-url.js';

/** Any error escaping a handler becomes a Status; unexpected ones are logged (k8s WithPanicRecovery). */
export const withPanicRecovery =
  (next: Handler, log: Logger): Handler =>
  async (req, res) => {
    try {
      await next(req, res);
    } catch (err) {
      if (!(err instanceof Error && err.name === 'StatusError')) {
        log.error('request failed', {
          err,
          method: req.method,
          path: requestUrl(req).pathname,
          auditId: auditIdFrom(req),
        });
      }
      writeErrorNegotiated(req, res, err);
    }
  };
