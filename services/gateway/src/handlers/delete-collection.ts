import type { HttpResponse } from '../http/handler.js';
import { formatApiVersion } from '@orch/apimachinery/schema';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import type { CollectionDeleter } from '../registry/rest.js';
import { parseDeleteOptions } from './delete.js';
import { parseListQuery } from './list-options.js';
import { readBody } from './decode.js';
import { admitDelete, contextOf, negotiateBeforeWrite, validationFor } from './scope.js';
import type { RequestScope } from './scope.js';

/**
 * DELETE of a collection (k8s DeleteCollection handler): answers the list of the objects it
 * deleted, as they were listed, as upstream's Store.DeleteCollection does.
 */
export async function deleteCollection(
  scope: RequestScope<CollectionDeleter>,
  res: HttpResponse
): Promise<void> {
  negotiateBeforeWrite(scope, { ...scope.rest.objectKind, kind: scope.def.listKind });
  const opts = parseDeleteOptions(scope.query, readBody(scope.req));
  const list = parseListQuery(scope.query, scope.def);
  await admitDelete(scope, opts.dryRun);
  const deleted = await scope.rest.deleteCollection(
    contextOf(scope),
    { ...opts, deleteValidation: validationFor(scope, 'DELETE', opts.dryRun) },
    { labelSelector: list.labelSelectorText, fieldSelector: list.fieldSelectorText }
  );
  writeObjectNegotiated(scope.req, res, 200, {
    kind: scope.def.listKind,
    apiVersion: formatApiVersion(scope.def),
    metadata: { resourceVersion: String(deleted.revision) },
    items: deleted.items,
  });
}
