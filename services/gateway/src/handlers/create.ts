import type { HttpResponse } from '../http/handler.js';
import { negotiateInput, writableMediaTypes } from '../negotiation/negotiate.js';
import { writeObjectNegotiated } from '../negotiation/response-writers.js';
import { isNamedCreater } from '../registry/rest.js';
import type { Creater, NamedCreater } from '../registry/rest.js';
import { addWarning } from '../request/context.js';
import { decodeRequestObject, parseFieldValidation, readBody } from './decode.js';
import { fieldManagerOf, parseWriteManager } from './field-manager.js';
import { parseDryRun } from './list-options.js';
import { admitFor, contextOf, namespaceOf, negotiateBeforeWrite, validationFor } from './scope.js';
import type { RequestScope } from './scope.js';

/**
 * POST to a collection (Creater) or to a subresource of one object (NamedCreater): stored kinds
 * and operations such as reviews and token requests alike.
 */
export async function createResource(
  scope: RequestScope<Creater | NamedCreater>,
  res: HttpResponse
): Promise<void> {
  const { rest, req } = scope;
  negotiateBeforeWrite(scope);
  const dryRun = parseDryRun(scope.query);
  const mode = parseFieldValidation(scope.query);
  const contentType = negotiateInput(req, writableMediaTypes);
  const target = { namespace: namespaceOf(scope) };
  const warn = (w: string): void => addWarning(req, w);
  const { manager } = parseWriteManager(scope, 'CreateOptions');
  let obj = decodeRequestObject(readBody(req), contentType, rest.objectKind, target, mode, warn);
  // The creator owns every field it set (k8s: FieldManager.UpdateNoErrors from an empty object,
  // before admission).
  const fm = fieldManagerOf(scope, true);
  if (fm) obj = fm.update(undefined, obj, manager);
  // Mutating admission on the decoded object, before the Store's strategy validates it.
  await admitFor(scope, 'CREATE', dryRun)?.(obj, undefined);
  const opts = { dryRun, createValidation: validationFor(scope, 'CREATE', dryRun), warn };
  const created =
    scope.info.subresource && isNamedCreater(rest)
      ? await rest.createNamed(contextOf(scope), scope.info.name, obj, opts)
      : await (rest as Creater).create(contextOf(scope), obj, opts);
  writeObjectNegotiated(req, res, 201, created);
}
