// A request to a Connecter's subresource (k8s handlers.ConnectResource): the REST object
// resolves the connection from the name and the query, then takes over the response. Errors
// before the first byte are Status answers; afterwards the stream simply ends.
import type { HttpResponse } from '../http/handler.js';
import type { Connecter } from '../registry/rest.js';
import { admitConnect, contextOf } from './scope.js';
import type { RequestScope } from './scope.js';

export async function connectResource(
  scope: RequestScope<Connecter>,
  res: HttpResponse
): Promise<void> {
  // The rest of the path after the subresource is the `path` option (upstream's subpath key).
  const query = new URLSearchParams(scope.query);
  const subpath = scope.info.parts.slice(3);
  if (subpath.length > 0) query.set('path', `/${subpath.join('/')}`);
  const options = scope.rest.connectOptions?.(scope.info.name, query);
  if (options) await admitConnect(scope, options);
  const handler = await scope.rest.connect(contextOf(scope), scope.info.name, query);
  await handler.serve(scope.req, res);
}
