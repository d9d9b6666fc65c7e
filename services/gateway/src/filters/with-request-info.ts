import type { RequestHandler } from 'express';
import { withRequestInfo } from '../request/context.js';
import { requestInfoOf, requestUrl } from '../request/request-info.js';

/** Parses what the request is about, once, for every later stage (k8s WithRequestInfo). */
export const withRequestInfoFilter = (): RequestHandler => (req, _res, next) => {
  withRequestInfo(req, requestInfoOf(req.method, requestUrl(req)));
  next();
};
