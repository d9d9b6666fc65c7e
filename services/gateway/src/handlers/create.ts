import type { ServerResponse } from 'node:http';
import { newMethodNotSupported } from '@orch/apimachinery/errors';
import { negotiateInput, writableMediaTypes } from '../negotiation/negotiate.js';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import { decodeRequestObject } from './decode.js';
import { parseDryRun } from './list-options.js';
import { namespaceOf } from './scope.js';
import type { RequestScope } from './scope.js';
import { addWarning } from '../request/context.js';

export async function createResource(scope: RequestScope, res: ServerResponse): Promise<void> {
  if (scope.info.subresource || scope.info.name) throw newMethodNotSupported(scope.store.groupResource, 'create');
  const dryRun = parseDryRun(scope.query);
  const obj = decodeRequestObject(scope.req, scope.query, scope.def, negotiateInput(scope.req, writableMediaTypes), { namespace: namespaceOf(scope) });
  const created = await scope.store.create(obj, {
    dryRun,
    validate: scope.validate,
    warn: (w) => addWarning(scope.req, w),
  });
  writeObjectNegotiated(scope.req, res, 201, created);
}
