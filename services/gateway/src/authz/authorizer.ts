// The authorizer role (k8s authorizer.Authorizer): the gateway asks it about every request after
// authentication and impersonation. Modes are implementations; the RBAC one lives in the
// authorizer service and is reached over gRPC.
import type { Attributes, AuthorizationResult } from '@orch/apimachinery/auth';

export interface Authorizer {
  authorize(a: Attributes): Promise<AuthorizationResult>;
}

/** Adapts a function to the Authorizer role. */
export class AuthorizerFunc implements Authorizer {
  constructor(
    private readonly fn: (a: Attributes) => Promise<AuthorizationResult> | AuthorizationResult
  ) {}
  async authorize(a: Attributes): Promise<AuthorizationResult> {
    return this.fn(a);
  }
}

export const alwaysAllow: Authorizer = new AuthorizerFunc(() => ({
  decision: 'allow',
  reason: '',
}));
export const alwaysDeny: Authorizer = new AuthorizerFunc(() => ({
  decision: 'deny',
  reason: 'Everything is forbidden.',
}));
