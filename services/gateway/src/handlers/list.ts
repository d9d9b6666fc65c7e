import type { HttpResponse } from '../http/handler.js';
import { formatApiVersion } from '@orch/apimachinery/schema';
import {
  answersPlainJson,
  writeJsonList,
  writeObjectNegotiated,
} from '../negotiation/response-writers.js';
import type { Lister } from '../registry/rest.js';
import { listConsistency, parseListQuery } from './list-options.js';
import { contextOf } from './scope.js';
import type { RequestScope } from './scope.js';

export async function listResource(scope: RequestScope<Lister>, res: HttpResponse): Promise<void> {
  const { rest } = scope;
  const opts = parseListQuery(scope.query, scope.def);
  const ctx = contextOf(scope);
  const req = {
    ...listConsistency(opts),
    labelSelector: opts.labelSelectorText,
    fieldSelector: opts.fieldSelectorText,
  };
  const head = (list: { revision: number; continueToken: string; remainingItemCount: number }) => {
    const metadata: Record<string, unknown> = { resourceVersion: String(list.revision) };
    if (list.continueToken) metadata['continue'] = list.continueToken;
    if (list.remainingItemCount >= 0 && list.continueToken)
      metadata['remainingItemCount'] = list.remainingItemCount;
    return { kind: scope.def.listKind, apiVersion: formatApiVersion(scope.def), metadata };
  };
  // Plain JSON, the common answer, passes storage's bytes through; anything else is encoded.
  if (rest.listJson && answersPlainJson(scope.req)) {
    const list = await rest.listJson(ctx, req);
    await writeJsonList(scope.req, res, head(list), list.items);
    return;
  }
  const list = await rest.list(ctx, req);
  writeObjectNegotiated(
    scope.req,
    res,
    200,
    { ...head(list), items: list.items },
    { def: scope.def, transform: true }
  );
}
