import type { Suite } from './suite.js';
import { waitFor } from './wait-for.js';

/**
 * Binds a ClusterRole to a group cluster-wide through the suite's admin (a ClusterRoleBinding
 * named `test-<role>-<group>`), for tests about who someone is rather than what they may do.
 * The authorizer follows bindings through its informer, so this returns once a
 * SubjectAccessReview for a member of the group allows `probe` (default: get namespaces).
 */
export async function grantClusterRole(
  suite: Suite,
  role: string,
  group: string,
  probe: { verb: string; group?: string; resource: string } = {
    verb: 'get',
    resource: 'namespaces',
  }
): Promise<void> {
  const name = `test-${role}-${group}`.replace(/[^a-z0-9.-]+/g, '-');
  const r = await suite.request(
    0,
    'POST',
    '/apis/rbac.authorization.orch.io/v1/clusterrolebindings',
    {
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: role },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.orch.io', name: group }],
    }
  );
  if (r.status !== 201) throw new Error(`binding ${role} to ${group}: ${r.status} ${r.text}`);
  await waitFor(
    `${role} granted to ${group}`,
    async () => {
      const review = await suite.request(
        0,
        'POST',
        '/apis/authorization.orch.io/v1/subjectaccessreviews',
        {
          apiVersion: 'authorization.orch.io/v1',
          kind: 'SubjectAccessReview',
          spec: { user: 'grant-probe', groups: [group], resourceAttributes: probe },
        }
      );
      return (review.body as { status?: { allowed?: boolean } }).status?.allowed === true;
    },
    { timeoutMs: 10_000 }
  );
}
