// A request to a Connecter's subresource (k8s handlers.ConnectResource): the REST object
// resolves the connection from the name and the query, then takes over the response. Errors
// before the first byte are Status answers; afterwards the stream simply ends.
import type { HttpResponse } from '../http/handler.js';
import type { Connecter } from '../registry/rest.js';
import { contextOf } from './scope.js';
import type { RequestScope } from './scope.js';

export async function connectResource(
  scope: RequestScope<Connecter>,
  res: HttpResponse
): Promise<void> {
  const handler = await scope.rest.connect(contextOf(scope), scope.info.name, scope.query);
  await handler.serve(scope.req, res);
}
