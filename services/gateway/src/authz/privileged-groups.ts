// The privileged groups authorizer (k8s authorizerfactory.NewPrivilegedGroups): members of
// `system:masters` are allowed everything before any mode is asked, whatever
// --authorization-mode says, as upstream puts it first in every authorizer chain
// (pkg/kubeapiserver/authorizer/config.go). A cluster administrator's certificate keeps working
// while the authorizer service is down, so its /readyz and logs can be read.
import type { Attributes, AuthorizationResult } from '@orch/apimachinery/auth';
import type { Authorizer } from './authorizer.js';

export const systemPrivilegedGroup = 'system:masters';

export class PrivilegedGroupsAuthorizer implements Authorizer {
  readonly #groups: ReadonlySet<string>;
  readonly #next: Authorizer;

  constructor(groups: readonly string[], next: Authorizer) {
    this.#groups = new Set(groups);
    this.#next = next;
  }

  authorize(a: Attributes): Promise<AuthorizationResult> {
    if (a.user.groups.some((g) => this.#groups.has(g)))
      return Promise.resolve({ decision: 'allow', reason: '' });
    return this.#next.authorize(a);
  }
}
