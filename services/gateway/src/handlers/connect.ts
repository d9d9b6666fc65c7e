// A request to a Connecter's subresource (k8s handlers.ConnectResource): the REST object
// resolves the connection from the name and the query, then takes over the response. Errors
// before the first byte are Status answers; afterwards the stream simply ends.
import type { HttpResponse } from '../http/handler.js';
import type { Connecter } from '../registry/rest.js';
import { forbidden } from '../authz/forbidden.js';
import { admitConnect, contextOf, createDenied } from './scope.js';
import type { RequestScope } from './scope.js';

export async function connectResource(
  scope: RequestScope<Connecter>,
  res: HttpResponse
): Promise<void> {
  // The rest of the path after the subresource is the `path` option (upstream's subpath key).
  const query = new URLSearchParams(scope.query);
  const subpath = scope.info.parts.slice(3);
  if (subpath.length > 0) query.set('path', `/${subpath.join('/')}`);
  // A WebSocket upgrade arrives as GET: exec, attach and portforward need `create` as a POST
  // (SPDY) does, asked before admission, refused with the authorization filter's message.
  if (scope.rest.createOnGet && scope.req.method === 'GET') {
    const denied = await createDenied(scope);
    if (denied) throw forbidden(denied.a, denied.reason);
  }
  const options = scope.rest.connectOptions?.(scope.info.name, query);
  if (options) await admitConnect(scope, options);
  const handler = await scope.rest.connect(contextOf(scope), scope.info.name, query);
  await handler.serve(scope.req, res);
}
