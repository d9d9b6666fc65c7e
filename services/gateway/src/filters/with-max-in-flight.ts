import { newTooManyRequests } from '@orch/apimachinery/errors';
import type { Handler } from '../http/handler.js';
import { writeErrorNegotiated } from '../negotiation/response-writers.js';
import { requestInfoFrom } from '../request/context.js';
import { isLongRunning } from '../request/long-running.js';

/** Caps concurrent requests, read-only and mutating apart; watches are not counted (k8s WithMaxInFlightLimit). */
export const withMaxInFlight = (
  next: Handler,
  maxReadOnly: number,
  maxMutating: number
): Handler => {
  let readOnly = 0;
  let mutating = 0;
  return (req, res) => {
    const info = requestInfoFrom(req);
    if (isLongRunning(info)) return next(req, res);
    const isMutating = !['GET', 'HEAD', 'OPTIONS'].includes(req.method ?? 'GET');
    const limit = isMutating ? maxMutating : maxReadOnly;
    if (limit > 0 && (isMutating ? mutating : readOnly) >= limit) {
      return writeErrorNegotiated(
        req,
        res,
        newTooManyRequests('Too many requests, please try again later.', 1)
      );
    }
    if (isMutating) mutating++;
    else readOnly++;
    res.on('close', () => (isMutating ? mutating-- : readOnly--));
    return next(req, res);
  };
};
