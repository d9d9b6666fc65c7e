import type { HttpResponse } from '../http/handler.js';
import { negotiateInput, writableMediaTypes } from '../negotiation/negotiate.js';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import type { Updater } from '../registry/rest.js';
import { addWarning } from '../request/context.js';
import { decodeRequestObject, parseFieldValidation, readBody } from './decode.js';
import { parseDryRun } from './list-options.js';
import {
  admittedUpdate,
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
  const update = admittedUpdate(scope, () => structuredClone(desired), dryRun);
  const result = await rest.update(contextOf(scope), info.name, update, {
    dryRun,
    createValidation: validationFor(scope, 'CREATE', dryRun),
    updateValidation: validationFor(scope, 'UPDATE', dryRun),
    warn,
  });
  writeObjectNegotiated(req, res, result.created ? 201 : 200, result.object);
}
