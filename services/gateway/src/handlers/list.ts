import type { ServerResponse } from 'node:http';
import { formatApiVersion } from '@orch/apimachinery/schema';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import { listConsistency, parseListOptions } from './list-options.js';
import { namespaceOf } from './scope.js';
import type { RequestScope } from './scope.js';

export async function listResource(scope: RequestScope, res: ServerResponse): Promise<void> {
  const opts = parseListOptions(scope.query, scope.def);
  const read = listConsistency(opts);
  const list = await scope.store.list({
    prefix: scope.store.prefix(namespaceOf(scope)),
    ...read,
    labelSelector: opts.labelSelectorText,
    fieldSelector: opts.fieldSelectorText,
  });
  const metadata: Record<string, unknown> = { resourceVersion: String(list.revision) };
  if (list.continueToken) metadata['continue'] = list.continueToken;
  if (list.remainingItemCount >= 0 && list.continueToken) metadata['remainingItemCount'] = list.remainingItemCount;
  writeObjectNegotiated(scope.req, res, 200, {
    kind: scope.def.listKind,
    apiVersion: formatApiVersion(scope.def),
    metadata,
    items: list.items,
  }, { def: scope.def, transform: true });
}
