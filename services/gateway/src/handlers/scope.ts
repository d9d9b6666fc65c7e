// What every handler of one resource needs (k8s handlers.RequestScope), and what handlers derive
// from it for the REST object: its context, the attributes of a write, the negotiated answer.
import type { IncomingMessage } from 'node:http';
import { canEncode } from '@orch/apimachinery/protobuf';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { formatApiVersion } from '@orch/apimachinery/schema';
import { negotiateOutput } from '../negotiation/negotiate.js';
import type { Output } from '../negotiation/negotiate.js';
import { validateObjectFunc } from '../registry/admission-attributes.js';
import type { Operation, ValidationFunc } from '../registry/admission-attributes.js';
import type { ObjectKind, RestContext, Storage, ValidateObjectFunc } from '../registry/rest.js';
import { userFrom } from '../request/context.js';
import type { RequestInfo } from '../request/request-info.js';

export interface RequestScope<R extends Storage = Storage> {
  /** The resource the path names (for a subresource, its parent's). */
  def: ResourceDefinition;
  /** The REST object serving the path, with the role the handler needs. */
  rest: R;
  /** Checks before a write is stored (namespace lifecycle, RBAC escalation; admission later). */
  validation: ValidationFunc | undefined;
  info: RequestInfo;
  query: URLSearchParams;
  req: IncomingMessage;
  /** Longest a watch may run when the client sets no timeoutSeconds. */
  maxWatchSeconds: number;
  onWatchEvent?: () => void;
}

export function namespaceOf(scope: RequestScope): string | undefined {
  return scope.def.namespaced && scope.info.namespace ? scope.info.namespace : undefined;
}

/** What the REST object learns of the request: the namespace of the path and the requester. */
export function contextOf(scope: RequestScope): RestContext {
  return { namespace: namespaceOf(scope), user: userFrom(scope.req) };
}

/** The validation of one write, bound to the request's attributes for the Store to call. */
export function validationFor(
  scope: RequestScope,
  operation: Operation,
  dryRun: boolean
): ValidateObjectFunc | undefined {
  const { def, info } = scope;
  return validateObjectFunc(scope.validation, {
    operation,
    resource: { group: def.group, version: def.version, resource: def.resource },
    subresource: info.subresource,
    namespace: namespaceOf(scope) ?? '',
    namespaced: def.namespaced,
    name: info.name,
    user: userFrom(scope.req),
    dryRun,
  });
}

/**
 * The representation of a write's answer, chosen before anything is written: a request whose
 * answer cannot be encoded for its Accept is 406 and stores nothing.
 */
export function negotiateBeforeWrite(
  scope: RequestScope,
  answer: ObjectKind = scope.rest.objectKind
): Output {
  const apiVersion = formatApiVersion(answer);
  return negotiateOutput(scope.req, { protobuf: canEncode({ apiVersion, kind: answer.kind }) });
}
