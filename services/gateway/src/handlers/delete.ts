import type { ServerResponse } from 'node:http';
import { newBadRequest, newMethodNotSupported } from '@orch/apimachinery/errors';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import { parseBody, readBody } from './decode.js';
import { parseDryRun } from './list-options.js';
import { namespaceOf } from './scope.js';
import type { RequestScope } from './scope.js';

export interface DeleteOptionsBody {
  dryRun: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** DeleteOptions from the body (kubectl sends one) and the query. */
export function parseDeleteOptions(scope: RequestScope): DeleteOptionsBody {
  let dryRun = parseDryRun(scope.query);
  const raw = readBody(scope.req);
  if (raw.length === 0 || raw.toString('utf8').trim() === '') return { dryRun };
  const body = parseBody(raw, 'application/json');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw newBadRequest('DeleteOptions must be an object');
  const o = body as { dryRun?: unknown; preconditions?: { uid?: string; resourceVersion?: string } };
  if (o.dryRun !== undefined) {
    if (!Array.isArray(o.dryRun) || o.dryRun.some((v) => v !== 'All')) throw newBadRequest('dryRun: Unsupported value: supported values: "All"');
    dryRun = dryRun || o.dryRun.length > 0;
  }
  return o.preconditions ? { dryRun, preconditions: o.preconditions } : { dryRun };
}

export async function deleteResource(scope: RequestScope, res: ServerResponse): Promise<void> {
  if (scope.info.subresource) throw newMethodNotSupported(scope.store.groupResource, `delete of ${scope.info.subresource}`);
  const opts = parseDeleteOptions(scope);
  const out = await scope.store.delete(namespaceOf(scope), scope.info.name, { ...opts, validate: scope.validate });
  writeObjectNegotiated(scope.req, res, out.code === 202 ? 202 : 200, out.object);
}
