// PUT: the desired object replaces the stored one inside the Store's update loop (created when
// missing where the strategy allows, which needs `create` permission too), managedFields recorded
// for the write's manager.
import type { HttpResponse } from '../http/handler.js';
import { negotiateInput, writableMediaTypes } from '../negotiation/negotiate.js';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import type { Updater } from '../registry/rest.js';
import { addWarning } from '../request/context.js';
import { decodeRequestObject, parseFieldValidation, readBody } from './decode.js';
import { fieldManagerOf, parseWriteManager } from './field-manager.js';
import { parseDryRun } from './list-options.js';
import {
  admittedUpdate,
  authorizedCreateValidationFor,
  contextOf,
  namespaceOf,
  negotiateBeforeWrite,
  validationFor,
} from './scope.js';
import type { RequestScope } from './scope.js';

export async function updateResource(
  scope: RequestScope<Updater>,
  res: HttpResponse
): Promise<void> {
  const { rest, req, info } = scope;
  negotiateBeforeWrite(scope);
  const dryRun = parseDryRun(scope.query);
  const mode = parseFieldValidation(scope.query);
  const contentType = negotiateInput(req, writableMediaTypes);
  const target = { namespace: namespaceOf(scope), name: info.name };
  const warn = (w: string): void => addWarning(req, w);
  const body = readBody(req);
  const desired = decodeRequestObject(body, contentType, rest.objectKind, target, mode, warn);
  const { manager } = parseWriteManager(scope, 'UpdateOptions');
  const fm = fieldManagerOf(scope);
  // managedFields of the write, against the object it replaces (k8s: the field manager's
  // transformer, before admission's).
  const update = admittedUpdate(
    scope,
    (current) => {
      const obj = structuredClone(desired);
      return fm ? fm.update(current, obj, manager) : obj;
    },
    dryRun
  );
  const result = await rest.update(contextOf(scope), info.name, update, {
    dryRun,
    createValidation: authorizedCreateValidationFor(scope, dryRun),
    updateValidation: validationFor(scope, 'UPDATE', dryRun),
    warn,
  });
  writeObjectNegotiated(req, res, result.created ? 201 : 200, result.object);
}
