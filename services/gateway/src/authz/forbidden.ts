// The Status of a denied request (k8s endpoints/handlers/responsewriters Forbidden), for the
// authorization filter and the handlers that authorize on their own.
import type { Attributes } from '@orch/apimachinery/auth';
import { StatusError, newForbidden } from '@orch/apimachinery/errors';

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
