import type { ServerResponse } from 'node:http';
import { isNotFound, newSuccess } from '@orch/apimachinery/errors';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import { parseDeleteOptions } from './delete.js';
import { parseListOptions } from './list-options.js';
import { namespaceOf } from './scope.js';
import type { RequestScope } from './scope.js';

export async function deleteCollection(scope: RequestScope, res: ServerResponse): Promise<void> {
  const opts = parseDeleteOptions(scope);
  const list = parseListOptions(scope.query, scope.def);
  const ns = namespaceOf(scope);
  const items = await scope.store.list({
    prefix: scope.store.prefix(ns),
    consistency: 'MOST_RECENT',
    labelSelector: list.labelSelectorText,
    fieldSelector: list.fieldSelectorText,
  });
  for (const item of items.items) {
    try {
      await scope.store.delete(item.metadata.namespace, item.metadata.name ?? '', { dryRun: opts.dryRun, validate: scope.validate });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  writeObjectNegotiated(scope.req, res, 200, newSuccess());
}
