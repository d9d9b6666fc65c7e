import type { HttpResponse } from '../http/handler.js';
import { newBadRequest } from '@orch/apimachinery/errors';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import type { GracefulDeleter } from '../registry/rest.js';
import { parseBody, readBody } from './decode.js';
import { parseDryRun } from './list-options.js';
import { admitDelete, contextOf, negotiateBeforeWrite, validationFor } from './scope.js';
import type { RequestScope } from './scope.js';

export interface DeleteOptionsBody {
  dryRun: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** DeleteOptions from the body (kubectl sends one) and the query. */
export function parseDeleteOptions(query: URLSearchParams, raw: Buffer): DeleteOptionsBody {
  let dryRun = parseDryRun(query);
  if (raw.length === 0 || raw.toString('utf8').trim() === '') return { dryRun };
  const body = parseBody(raw, 'application/json');
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw newBadRequest('DeleteOptions must be an object');
  const o = body as {
    dryRun?: unknown;
    preconditions?: { uid?: string; resourceVersion?: string };
  };
  if (o.dryRun !== undefined) {
    if (!Array.isArray(o.dryRun) || o.dryRun.some((v) => v !== 'All'))
      throw newBadRequest('dryRun: Unsupported value: supported values: "All"');
    dryRun = dryRun || o.dryRun.length > 0;
  }
  return o.preconditions ? { dryRun, preconditions: o.preconditions } : { dryRun };
}

export async function deleteResource(
  scope: RequestScope<GracefulDeleter>,
  res: HttpResponse
): Promise<void> {
  negotiateBeforeWrite(scope);
  const opts = parseDeleteOptions(scope.query, readBody(scope.req));
  await admitDelete(scope, opts.dryRun);
  const out = await scope.rest.delete(contextOf(scope), scope.info.name, {
    ...opts,
    deleteValidation: validationFor(scope, 'DELETE', opts.dryRun),
  });
  writeObjectNegotiated(scope.req, res, out.code === 202 ? 202 : 200, out.object);
}
