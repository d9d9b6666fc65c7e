import type { HttpResponse } from '../http/handler.js';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import type { Getter } from '../registry/rest.js';
import { getConsistency } from './list-options.js';
import { contextOf } from './scope.js';
import type { RequestScope } from './scope.js';

export async function getResource(scope: RequestScope<Getter>, res: HttpResponse): Promise<void> {
  const rv = getConsistency(scope.query.get('resourceVersion') ?? undefined);
  const obj = await scope.rest.get(contextOf(scope), scope.info.name, rv);
  writeObjectNegotiated(scope.req, res, 200, obj, { def: scope.def, transform: true });
}
