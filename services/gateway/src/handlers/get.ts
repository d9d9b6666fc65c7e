import type { ServerResponse } from 'node:http';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import { getConsistency } from './list-options.js';
import { namespaceOf } from './scope.js';
import type { RequestScope } from './scope.js';

export async function getResource(scope: RequestScope, res: ServerResponse): Promise<void> {
  const rv = getConsistency(scope.query.get('resourceVersion') ?? undefined);
  const obj = await scope.store.get(namespaceOf(scope), scope.info.name, rv);
  writeObjectNegotiated(scope.req, res, 200, obj, { def: scope.def, transform: true });
}
