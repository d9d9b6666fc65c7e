import type { ServerResponse } from 'node:http';
import { newMethodNotSupported } from '@orch/apimachinery/errors';
import { negotiateInput, writableMediaTypes } from '../negotiation/negotiate.js';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import { decodeRequestObject } from './decode.js';
import { parseDryRun } from './list-options.js';
import { namespaceOf } from './scope.js';
import type { RequestScope } from './scope.js';
import { addWarning } from '../request/context.js';

export function checkSubresource(scope: RequestScope, verb: string): string | undefined {
  const sub = scope.info.subresource || undefined;
  if (sub && !scope.def.subresources?.includes(sub)) throw newMethodNotSupported(scope.store.groupResource, `${verb} of ${sub}`);
  return sub;
}

export async function updateResource(scope: RequestScope, res: ServerResponse): Promise<void> {
  const subresource = checkSubresource(scope, 'update');
  const dryRun = parseDryRun(scope.query);
  const desired = decodeRequestObject(scope.req, scope.query, scope.def, negotiateInput(scope.req, writableMediaTypes), { namespace: namespaceOf(scope), name: scope.info.name });
  const result = await scope.store.update(namespaceOf(scope), scope.info.name, () => desired, {
    dryRun,
    validate: scope.validate,
    warn: (w) => addWarning(scope.req, w),
    ...(subresource ? { subresource } : {}),
  });
  writeObjectNegotiated(scope.req, res, result.created ? 201 : 200, result.object);
}
