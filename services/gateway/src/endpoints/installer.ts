// Resource routes from the resource registry: every /api and /apis request with a resource
// goes to the handler of its verb (k8s registerResourceHandlers).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { newMethodNotSupported, newNotFound } from '@orch/apimachinery/errors';
import type { ResourceRegistry } from '@orch/apimachinery/registry';
import { writeErrorNegotiated } from '../negotiation/response-writers.js';
import { requestInfoFrom } from '../request/context.js';
import type { RequestInfo } from '../request/request-info.js';
import { requestUrl } from '../request/request-info.js';
import type { Store, ValidateObjectFunc } from '../registry/store.js';
import type { Fanout } from '../watch/fanout.js';
import { createResource } from '../handlers/create.js';
import { deleteCollection } from '../handlers/delete-collection.js';
import { deleteResource } from '../handlers/delete.js';
import { getResource } from '../handlers/get.js';
import { listResource } from '../handlers/list.js';
import { patchResource } from '../handlers/patch.js';
import type { RequestScope } from '../handlers/scope.js';
import { updateResource } from '../handlers/update.js';
import { watchResource } from '../handlers/watch.js';

type Handler = (scope: RequestScope, res: ServerResponse) => Promise<void>;

/**
 * A virtual resource or subresource: an operation, not a stored object (token reviews, access
 * reviews, `serviceaccounts/<name>/token`). Keyed in InstallerDeps.virtual by
 * `<group>/<version>/<resource>` or `<group>/<version>/<resource>/<subresource>`; it answers the
 * request itself (body: the raw request bytes).
 */
export type VirtualHandler = (req: IncomingMessage, res: ServerResponse, info: RequestInfo, body: Buffer) => Promise<void>;

const handlers: Record<string, Handler> = {
  get: getResource,
  list: listResource,
  watch: watchResource,
  create: createResource,
  update: updateResource,
  patch: patchResource,
  delete: deleteResource,
  deletecollection: deleteCollection,
};

export interface InstallerDeps {
  registry: ResourceRegistry;
  stores: Map<string, Store>;
  fanout: Fanout;
  /** The validate step of a request's writes (req: for checks that depend on the requester). */
  validateFor: (store: Store, req: IncomingMessage) => ValidateObjectFunc;
  maxWatchSeconds: number;
  onWatchEvent?: () => void;
  virtual?: Map<string, VirtualHandler>;
}

export function resourceHandler(deps: InstallerDeps): RequestHandler {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const info = requestInfoFrom(req);
    if (!info?.isResourceRequest) return next();
    const virtual = deps.virtual?.get(virtualKey(info));
    if (virtual) {
      const body = Buffer.isBuffer((req as { body?: unknown }).body) ? ((req as { body?: unknown }).body as Buffer) : Buffer.alloc(0);
      virtual(req, res, info, body).catch((err: unknown) => writeErrorNegotiated(req, res, err));
      return;
    }
    const def = deps.registry.lookup(info.apiGroup, info.apiVersion, info.resource);
    const store = def && deps.stores.get(`${def.group}/${def.version}/${def.resource}`);
    if (!def || !store) {
      return writeErrorNegotiated(req, res, newNotFound({ group: info.apiGroup, resource: info.resource }, info.name));
    }
    if (!def.namespaced && info.namespace && info.resource !== 'namespaces') {
      return writeErrorNegotiated(req, res, newNotFound({ group: info.apiGroup, resource: info.resource }, info.name));
    }
    const handler = handlers[info.verb];
    if (!handler || (info.subresource && (info.verb === 'list' || info.verb === 'watch'))) {
      return writeErrorNegotiated(req, res, newMethodNotSupported({ group: def.group, resource: def.resource }, req.method ?? ''));
    }
    if ((info.verb === 'update' || info.verb === 'patch' || info.verb === 'delete' || info.verb === 'get') && !info.name) {
      return writeErrorNegotiated(req, res, newMethodNotSupported({ group: def.group, resource: def.resource }, req.method ?? ''));
    }
    const scope: RequestScope = {
      def,
      store,
      fanout: deps.fanout,
      validate: deps.validateFor(store, req),
      info,
      query: requestUrl(req).searchParams,
      req,
      maxWatchSeconds: deps.maxWatchSeconds,
      ...(deps.onWatchEvent ? { onWatchEvent: deps.onWatchEvent } : {}),
    };
    handler(scope, res).catch((err: unknown) => writeErrorNegotiated(req, res, err));
  };
}

function virtualKey(info: RequestInfo): string {
  const base = `${info.apiGroup}/${info.apiVersion}/${info.resource}`;
  return info.subresource ? `${base}/${info.subresource}` : base;
}
