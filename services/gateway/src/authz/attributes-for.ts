// The authorizer attributes of a request (k8s endpoints/filters GetAuthorizerAttributes), read by
// the authorization filter and by handlers that authorize a second verb (apply's create).
import type { Attributes, UserInfo } from '@orch/apimachinery/auth';
import type { HttpRequest } from '../http/handler.js';
import { requestUrl } from '../http/request-url.js';
import { requestInfoFrom } from '../request/context.js';
import { requestInfoOf } from '../request/request-info.js';

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
