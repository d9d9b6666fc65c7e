// Authorization (k8s WithAuthorization + GetAuthorizerAttributes): the request's attributes go to
// the authorizer; only an explicit allow passes. A denial or no opinion is 403 with a Status
// naming the user, the verb and the resource; an authorizer that cannot answer is 503.
import { anonymousUserInfo } from '@orch/apimachinery/auth';
import type { Attributes, UserInfo } from '@orch/apimachinery/auth';
import { StatusError, newForbidden } from '@orch/apimachinery/errors';
import type { Handler, HttpRequest } from '../http/handler.js';
import { writeErrorNegotiated } from '../negotiation/response-writers.js';
import { requestInfoFrom, userFrom, withUser } from '../request/context.js';
import { requestInfoOf } from '../request/request-info.js';
import { requestUrl } from '../http/request-url.js';
import type { Authorizer } from '../authz/authorizer.js';

/** The authorizer attributes of a request (k8s GetAuthorizerAttributes). */
export function attributesFor(req: HttpRequest, user: UserInfo): Attributes {
  const info = requestInfoFrom(req) ?? requestInfoOf(req.method ?? 'GET', requestUrl(req));
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    namespace: info.namespace,
    name: info.name,
  };
}

/** The k8s message: `User "u" cannot get resource "pods" in API group "" in the namespace "ns"`. */
export function forbiddenMessage(a: Attributes, reason: string): string {
  let msg: string;
  if (!a.isResourceRequest) {
    msg = `User "${a.user.name}" cannot ${a.verb} path "${a.path}"`;
  } else {
    const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    msg = `User "${a.user.name}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup}"`;
    msg += a.namespace ? ` in the namespace "${a.namespace}"` : ' at the cluster scope';
  }
  return reason ? `${msg}: ${reason}` : msg;
}

export function forbidden(a: Attributes, reason: string): Error {
  const why = forbiddenMessage(a, reason);
  if (!a.isResourceRequest) {
    return new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `forbidden: ${why}`,
      reason: 'Forbidden',
      details: {},
      code: 403,
    });
  }
  return newForbidden({ group: a.apiGroup, resource: a.resource }, a.name, why);
}

export const withAuthorization =
  (next: Handler, authorizer: Authorizer): Handler =>
  async (req, res) => {
    let user = userFrom(req);
    if (!user) {
      user = anonymousUserInfo();
      withUser(req, user);
    }
    const a = attributesFor(req, user);
    let answer;
    try {
      answer = await authorizer.authorize(a);
    } catch (err) {
      return writeErrorNegotiated(req, res, err);
    }
    if (answer.decision === 'allow') return next(req, res);
    writeErrorNegotiated(req, res, forbidden(a, answer.reason));
  };
