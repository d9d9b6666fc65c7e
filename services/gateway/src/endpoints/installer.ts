// Resource routes from the resource registry: every /api and /apis request with a resource goes
// to the REST object of its path, keyed `<group>/<version>/<resource>[/<subresource>]`, and to
// the handler of its verb when the object implements the role that verb needs (k8s
// registerResourceHandlers, which inspects rest.Creater, rest.Getter, ...); otherwise 405, as
// go-restful answers a method no route of the path takes.
import { newMethodNotAllowed, newNotFound, newPathNotFound } from '@orch/apimachinery/errors';
import type { ResourceRegistry } from '@orch/apimachinery/registry';
import type { Handler as HttpHandler, HttpResponse } from '../http/handler.js';
import { writeErrorNegotiated } from '../negotiation/response-writers.js';
import type { Admission } from '../admission/interfaces.js';
import type { Authorizer } from '../authz/authorizer.js';
import {
  isCollectionDeleter,
  isConnecter,
  isCreater,
  isGetter,
  isGracefulDeleter,
  isLister,
  isNamedCreater,
  isPatcher,
  isUpdater,
  isWatcher,
  restKey,
} from '../registry/rest.js';
import type { Storage } from '../registry/rest.js';
import { addWarning, requestInfoFrom } from '../request/context.js';
import { customResourceDeprecationWarning } from '../registry/apiextensions/customresources/resource-definitions.js';
import { recordDeprecatedRequest } from './deprecation.js';
import type { DeprecatedApiGauge } from './deprecation.js';
import { newRemovedVersionNotFound, removedVersionOf } from '../resourceconfig/removed-versions.js';
import type { RequestInfo } from '../request/request-info.js';
import { requestUrl } from '../http/request-url.js';
import { connectResource } from '../handlers/connect.js';
import { createResource } from '../handlers/create.js';
import { deleteCollection } from '../handlers/delete-collection.js';
import { deleteResource } from '../handlers/delete.js';
import { getResource } from '../handlers/get.js';
import { listResource } from '../handlers/list.js';
import { patchResource } from '../handlers/patch.js';
import type { RequestScope } from '../handlers/scope.js';
import { updateResource } from '../handlers/update.js';
import { watchResource } from '../handlers/watch.js';

type Handler = (scope: RequestScope, res: HttpResponse) => Promise<void>;

/**
 * The handler of a request's verb on a REST object, when the object has the role the verb needs
 * and the path the shape it needs (a name for get, update, patch and delete; none for list and
 * create on a collection; create on a subresource needs a NamedCreater). A Connecter's
 * subresource takes the HTTP methods it names.
 */
export function handlerFor(info: RequestInfo, rest: Storage, method = ''): Handler | undefined {
  const sub = info.subresource !== '';
  const named = info.name !== '';
  // Each handler takes the role its guard just checked (the cast: TypeScript cannot follow
  // the guard from the storage to the handler's parameter).
  const as = <S extends Storage>(
    h: (scope: RequestScope<S>, res: HttpResponse) => Promise<void>
  ): Handler => h as unknown as Handler;
  // A Connecter takes the methods it names on a named object (k8s registerResourceHandlers'
  // CONNECT routes), whatever verb the method maps to.
  if (sub && named && isConnecter(rest) && rest.connectMethods.includes(method)) {
    return as(connectResource);
  }
  switch (info.verb) {
    case 'get':
      return named && isGetter(rest) ? as(getResource) : undefined;
    case 'list':
      return !sub && isLister(rest) ? as(listResource) : undefined;
    case 'watch':
      return !sub && isWatcher(rest) && isLister(rest) ? as(watchResource) : undefined;
    case 'create':
      if (sub) return isNamedCreater(rest) ? as(createResource) : undefined;
      return !named && isCreater(rest) ? as(createResource) : undefined;
    case 'update':
      return named && isUpdater(rest) ? as(updateResource) : undefined;
    case 'patch':
      return named && isPatcher(rest) ? as(patchResource) : undefined;
    case 'delete':
      return named && isGracefulDeleter(rest) ? as(deleteResource) : undefined;
    case 'deletecollection':
      return !sub && isCollectionDeleter(rest) ? as(deleteCollection) : undefined;
    default:
      return undefined;
  }
}

export interface InstallerDeps {
  registry: ResourceRegistry;
  /** The REST objects, keyed by restKey. */
  rest: Map<string, Storage>;
  /** The admission chain of every write, reading the write's attributes (admission/chain.ts). */
  admission?: Admission;
  /** The authorizer, for the extra check of an apply that creates. */
  authorizer?: Authorizer;
  maxWatchSeconds: number;
  /** Aborted when the server shuts down: open watches end then (clients watch again elsewhere). */
  shuttingDown?: AbortSignal;
  onWatchEvent?: () => void;
  /** apiserver_requested_deprecated_apis. */
  deprecatedApis?: DeprecatedApiGauge;
}

/** The handler of resource requests (the chain sends only those here, after request info). */
export function resourceHandler(deps: InstallerDeps): HttpHandler {
  return (req, res) => {
    const info = requestInfoFrom(req);
    if (!info?.isResourceRequest) {
      return writeErrorNegotiated(req, res, newNotFound({ group: '', resource: '' }, ''));
    }
    const def = deps.registry.lookup(info.apiGroup, info.apiVersion, info.resource);
    const rest = def && deps.rest.get(restKey(def, info.subresource));
    // A subresource the kind does not have matches no route upstream: go-restful's 404.
    if (def && !rest && info.subresource !== '') {
      return writeErrorNegotiated(req, res, newPathNotFound());
    }
    const removed = !def && removedVersionOf(info.apiGroup, info.apiVersion, info.resource);
    if (removed) {
      const served = (group: string, resource: string): string[] =>
        deps.registry
          .all()
          .filter((d) => d.group === group && d.resource === resource)
          .map((d) => d.version);
      return writeErrorNegotiated(
        req,
        res,
        newRemovedVersionNotFound(removed, info.resource, served)
      );
    }
    // A resource the group version does not serve matches no route upstream either (the
    // NotFound handler's 404; there is no kind `List`, so `/api/v1/lists` is one of these).
    if (!def || !rest) return writeErrorNegotiated(req, res, newPathNotFound());
    if (!def.namespaced && info.namespace && info.resource !== 'namespaces') {
      return writeErrorNegotiated(
        req,
        res,
        newNotFound({ group: info.apiGroup, resource: info.resource }, info.name)
      );
    }
    if (def.deprecation) recordDeprecatedRequest(req, def, info.subresource, deps.deprecatedApis);
    const crWarning = customResourceDeprecationWarning(def);
    if (crWarning) addWarning(req, crWarning);
    const handler = handlerFor(info, rest, req.method ?? '');
    if (!handler) return writeErrorNegotiated(req, res, newMethodNotAllowed());
    const scope: RequestScope = {
      def,
      rest,
      admission: deps.admission,
      authorizer: deps.authorizer,
      info,
      query: requestUrl(req).searchParams,
      req,
      maxWatchSeconds: deps.maxWatchSeconds,
      ...(deps.shuttingDown ? { shuttingDown: deps.shuttingDown } : {}),
      ...(deps.onWatchEvent ? { onWatchEvent: deps.onWatchEvent } : {}),
    };
    return handler(scope, res).catch((err: unknown) => writeErrorNegotiated(req, res, err));
  };
}
