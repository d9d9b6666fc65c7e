import type { HttpResponse } from '../http/handler.js';
import { newSuccess } from '@orch/apimachinery/errors';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import type { CollectionDeleter } from '../registry/rest.js';
import { parseDeleteOptions } from './delete.js';
import { parseListQuery } from './list-options.js';
import { readBody } from './decode.js';
import { admitDelete, contextOf, negotiateBeforeWrite, validationFor } from './scope.js';
import type { RequestScope } from './scope.js';

export async function deleteCollection(
  scope: RequestScope<CollectionDeleter>,
  res: HttpResponse
): Promise<void> {
  negotiateBeforeWrite(scope, { group: '', version: 'v1', kind: 'Status', namespaced: false });
  const opts = parseDeleteOptions(scope.query, readBody(scope.req));
  const list = parseListQuery(scope.query, scope.def);
  await admitDelete(scope, opts.dryRun);
  await scope.rest.deleteCollection(
    contextOf(scope),
    { ...opts, deleteValidation: validationFor(scope, 'DELETE', opts.dryRun) },
    { labelSelector: list.labelSelectorText, fieldSelector: list.fieldSelectorText }
  );
  writeObjectNegotiated(scope.req, res, 200, newSuccess());
}
