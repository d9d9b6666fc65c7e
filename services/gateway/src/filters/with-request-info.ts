import type { Handler } from '../http/handler.js';
import { withRequestInfo } from '../request/context.js';
import { requestInfoOf } from '../request/request-info.js';
import { requestUrl } from '../http/request-url.js';

/** Parses what the request is about, once, for every later stage (k8s WithRequestInfo). */
export const withRequestInfoFilter =
  (next: Handler): Handler =>
  (req, res) => {
    withRequestInfo(req, requestInfoOf(req.method ?? 'GET', requestUrl(req)));
    return next(req, res);
  };
