// The authorizer role (k8s authorizer.Authorizer): the gateway asks it about every request after
// authentication and impersonation. Modes are implementations; the RBAC one lives in the
// authorizer service and is reached over gRPC.
import type { Decision } from '@orch/apimachinery/grpc';
import type { UserInfo } from '../request/context.js';

/** What a request wants to do (k8s authorizer.Attributes). */
export interface Attributes {
  user: UserInfo;
  /** get, list, watch, create, update, patch, delete, deletecollection, impersonate, ...; or the lowercased HTTP method for non-resource paths. */
  verb: string;
  isResourceRequest: boolean;
  /** The URL path, for non-resource requests. */
  path: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

export type { Decision };

export interface AuthorizationResult {
  decision: Decision;
  reason: string;
  /** Through which revision of each kind of policy object the decision was made (see CachingAuthorizer). */
  policyRevisions?: Record<string, number>;
  /** The decision holds for any resource name (see CachingAuthorizer). */
  nameIndependent?: boolean;
}

export interface Authorizer {
  authorize(a: Attributes): Promise<AuthorizationResult>;
}

/** Adapts a function to the Authorizer role. */
export class AuthorizerFunc implements Authorizer {
  constructor(private readonly fn: (a: Attributes) => Promise<AuthorizationResult> | AuthorizationResult) {}
  async authorize(a: Attributes): Promise<AuthorizationResult> {
    return this.fn(a);
  }
}

export const alwaysAllow: Authorizer = new AuthorizerFunc(() => ({ decision: 'allow', reason: '' }));
export const alwaysDeny: Authorizer = new AuthorizerFunc(() => ({ decision: 'deny', reason: 'Everything is forbidden.' }));
