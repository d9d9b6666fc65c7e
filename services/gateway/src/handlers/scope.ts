// What every handler of one resource needs (k8s handlers.RequestScope), and what handlers derive
// from it for the REST object: its context, the attributes of a write, the negotiated answer.
import type { Attributes } from '@orch/apimachinery/auth';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { HttpRequest } from '../http/handler.js';
import { newForbidden } from '@orch/apimachinery/errors';
import { canEncode } from '@orch/apimachinery/protobuf';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { formatApiVersion } from '@orch/apimachinery/schema';
import { negotiateOutput } from '../negotiation/negotiate.js';
import type { Output } from '../negotiation/negotiate.js';
import { admissionObjectFunc, operationOptions } from '../admission/interfaces.js';
import type { Admission, Operation, StaticAttributes } from '../admission/interfaces.js';
import { attributesFor } from '../authz/attributes-for.js';
import type { Authorizer } from '../authz/authorizer.js';
import type {
  ObjectKind,
  RestContext,
  Storage,
  UpdateFunc,
  ValidateObjectFunc,
} from '../registry/rest.js';
import { addAuditAnnotation, addWarning, userFrom } from '../request/context.js';
import type { RequestInfo } from '../request/request-info.js';

export interface RequestScope<R extends Storage = Storage> {
  /** The resource the path names (for a subresource, its parent's). */
  def: ResourceDefinition;
  /** The REST object serving the path, with the role the handler needs. */
  rest: R;
  /** The admission chain every write goes through (admission/chain.ts). */
  admission: Admission | undefined;
  /**
   * The request's authorizer, for checks a handler makes beyond the request's own verb (a PUT
   * or an apply that creates needs `create` too, k8s withAuthorization).
   */
  authorizer?: Authorizer | undefined;
  info: RequestInfo;
  query: URLSearchParams;
  req: HttpRequest;
  /** Longest a watch may run when the client sets no timeoutSeconds. */
  maxWatchSeconds: number;
  /** Aborted when the server shuts down: an open watch ends then. */
  shuttingDown?: AbortSignal;
  onWatchEvent?: () => void;
}

export function namespaceOf(scope: RequestScope): string | undefined {
  return scope.def.namespaced && scope.info.namespace ? scope.info.namespace : undefined;
}

/** What the REST object learns of the request: the namespace of the path and the requester. */
export function contextOf(scope: RequestScope): RestContext {
  return { namespace: namespaceOf(scope), user: userFrom(scope.req) };
}

function staticAttributes(
  scope: RequestScope,
  operation: Operation,
  dryRun: boolean
): StaticAttributes {
  const { def, info, rest } = scope;
  const { group, version, kind } = rest.objectKind;
  return {
    operation,
    kind: { group, version, kind },
    resource: { group: def.group, version: def.version, resource: def.resource },
    subresource: info.subresource,
    namespace: namespaceOf(scope) ?? '',
    namespaced: def.namespaced,
    name: info.name,
    user: userFrom(scope.req),
    dryRun,
    warn: (text) => addWarning(scope.req, text),
    annotate: (key, value) => addAuditAnnotation(scope.req, key, value),
  };
}

/**
 * The validating phase of admission for one write, bound to the request's attributes for the
 * Store to call with the final object, after the strategy's validation.
 */
export function validationFor(
  scope: RequestScope,
  operation: Operation,
  dryRun: boolean
): ValidateObjectFunc | undefined {
  const admission = scope.admission;
  if (!admission) return undefined;
  return admissionObjectFunc(
    (a) => admission.validate(a),
    staticAttributes(scope, operation, dryRun)
  );
}

/**
 * Asks the request's authorizer whether its requester may also `create` what the request names:
 * undefined when allowed (or when there is no authorizer or user), else the attributes asked and
 * the authorizer's reason.
 */
export async function createDenied(
  scope: RequestScope
): Promise<{ a: Attributes; reason: string } | undefined> {
  const { authorizer } = scope;
  const user = userFrom(scope.req);
  if (!authorizer || !user) return undefined;
  const a = { ...attributesFor(scope.req, user), verb: 'create' };
  const { decision, reason } = await authorizer.authorize(a);
  return decision === 'allow' ? undefined : { a, reason };
}

/**
 * The create validation of a write that creates what is missing (a PUT, an apply): the requester
 * must be allowed to `create` the resource as well as the request's own verb, asked once per
 * request however often the update loop retries, then validating admission runs (k8s
 * withAuthorization around createValidation in handlers/update.go and patch.go, whose 403 says
 * `<resource> "<name>" is forbidden: <reason>`).
 */
export function authorizedCreateValidationFor(
  scope: RequestScope,
  dryRun: boolean
): ValidateObjectFunc {
  const validate = validationFor(scope, 'CREATE', dryRun);
  let decided: Promise<void> | undefined;
  const authorize = async (): Promise<void> => {
    const denied = await createDenied(scope);
    // Upstream's message: the resource, then the authorizer's reason alone (RBAC gives none).
    if (denied) {
      const { a, reason } = denied;
      throw newForbidden({ group: a.apiGroup, resource: a.resource }, a.name, reason);
    }
  };
  return async (obj, old) => {
    decided ??= authorize();
    await decided;
    await validate?.(obj, old);
  };
}

/**
 * The mutating phase of admission for one write, bound to the request's attributes: the create
 * handler calls it with the decoded object before the Store's strategy, admittedUpdate inside
 * the update function.
 */
export function admitFor(
  scope: RequestScope,
  operation: Operation,
  dryRun: boolean
): ValidateObjectFunc | undefined {
  const admission = scope.admission;
  if (!admission) return undefined;
  return admissionObjectFunc((a) => admission.admit(a), staticAttributes(scope, operation, dryRun));
}

/**
 * Admission of a connect request (k8s handlers.ConnectResource): both phases with operation
 * CONNECT, the connect options object (PodExecOptions, NodeProxyOptions, ...) as the object and
 * its kind as the request's kind; a refusal answers the request before any connection is made.
 */
export async function admitConnect(scope: RequestScope, options: ApiObject): Promise<void> {
  const admission = scope.admission;
  if (!admission) return;
  const { namespaced: _, ...base } = staticAttributes(scope, 'CONNECT', false);
  const apiVersion = String(options['apiVersion']);
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const attrs = {
    ...base,
    kind: { group: group ?? '', version: version ?? '', kind: String(options['kind']) },
    object: options,
    oldObject: undefined,
    options: undefined,
  };
  await admission.admit(attrs);
  await admission.validate(attrs);
}

/** The mutating phase before a delete or deletecollection: no object (upstream passes nil). */
export async function admitDelete(scope: RequestScope, dryRun: boolean): Promise<void> {
  if (!scope.admission) return;
  const { namespaced: _, ...base } = staticAttributes(scope, 'DELETE', dryRun);
  await scope.admission.admit({
    ...base,
    object: undefined,
    oldObject: undefined,
    options: operationOptions('DELETE', dryRun),
  });
}

/**
 * The update function of an update or patch with the mutating phase of admission applied to
 * what it produced, inside the Store's guaranteed-update loop and before the strategy validates
 * (upstream's admit transformer of rest.DefaultUpdatedObjectInfo); CREATE when nothing is stored.
 */
export function admittedUpdate(scope: RequestScope, fn: UpdateFunc, dryRun: boolean): UpdateFunc {
  const admit = admitFor(scope, 'UPDATE', dryRun);
  if (!admit) return fn;
  return async (current) => {
    const old = current === undefined ? undefined : structuredClone(current);
    const obj = await fn(current);
    await admit(obj, old);
    return obj;
  };
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
