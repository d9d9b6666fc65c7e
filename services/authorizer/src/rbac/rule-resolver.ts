// Which rules apply to a user in a namespace (k8s pkg/registry/rbac/validation DefaultRuleResolver):
// the ClusterRoles of every ClusterRoleBinding naming the user, then, in a namespace, the
// Roles or ClusterRoles of every RoleBinding there naming the user.
import type { PolicyRule, Role, RoleBinding, Subject, UserInfo } from '@orch/apimachinery/auth';
import { allUnauthenticated, anonymousUser, serviceAccountPrefix } from '@orch/apimachinery/auth';

/** Where the RBAC objects come from (informer caches in the service, plain arrays in tests). */
export interface RbacSource {
  getRole(namespace: string, name: string): Role | undefined;
  getClusterRole(name: string): Role | undefined;
  listRoleBindings(namespace: string): RoleBinding[];
  listClusterRoleBindings(): RoleBinding[];
}

/** Why a rule applies, for the decision's reason. */
export interface RuleSource {
  binding: RoleBinding;
  bindingKind: 'ClusterRoleBinding' | 'RoleBinding';
  subject: Subject;
}

/** Return false to stop visiting. */
export type RuleVisitor = (
  source: RuleSource | undefined,
  rule: PolicyRule | undefined,
  err: string | undefined
) => boolean;

const isAnonymous = (u: UserInfo): boolean =>
  u.name === anonymousUser || u.groups.includes(allUnauthenticated);

/**
 * Whether a subject names the user (k8s appliesToUser). A subject named `*` (User or Group) is
 * a wildcard grant: every user but the anonymous one, who needs an explicit `system:anonymous`
 * or `system:unauthenticated` subject.
 */
export function appliesTo(user: UserInfo, s: Subject, bindingNamespace: string): boolean {
  switch (s.kind) {
    case 'User':
      if (s.name === '*') return !isAnonymous(user);
      return user.name === s.name;
    case 'Group':
      if (s.name === '*') return !isAnonymous(user);
      return user.groups.includes(s.name);
    case 'ServiceAccount': {
      const ns = s.namespace || bindingNamespace;
      if (!ns) return false;
      return user.name === `${serviceAccountPrefix}${ns}:${s.name}`;
    }
    default:
      return false;
  }
}

function appliesToUser(user: UserInfo, b: RoleBinding, namespace: string): Subject | undefined {
  return (b.subjects ?? []).find((s) => appliesTo(user, s, namespace));
}

export class RuleResolver {
  constructor(private readonly source: RbacSource) {}

  /** The rules a role reference stands for, or an error when the role is missing. */
  rulesOf(
    ref: { kind: string; name: string },
    bindingNamespace: string
  ): { rules: PolicyRule[]; err?: string } {
    if (ref.kind === 'ClusterRole') {
      const r = this.source.getClusterRole(ref.name);
      return r
        ? { rules: r.rules ?? [] }
        : { rules: [], err: `clusterrole.rbac.authorization.orch.io "${ref.name}" not found` };
    }
    if (ref.kind === 'Role' && bindingNamespace) {
      const r = this.source.getRole(bindingNamespace, ref.name);
      return r
        ? { rules: r.rules ?? [] }
        : { rules: [], err: `role.rbac.authorization.orch.io "${ref.name}" not found` };
    }
    return { rules: [], err: `unsupported role reference kind: "${ref.kind}"` };
  }

  /** Visits every rule that applies to the user in the namespace ('' = cluster-wide only). */
  visitRulesFor(user: UserInfo, namespace: string, visit: RuleVisitor): void {
    for (const b of this.source.listClusterRoleBindings()) {
      const subject = appliesToUser(user, b, '');
      if (!subject) continue;
      const { rules, err } = this.rulesOf(b.roleRef, '');
      if (err && !visit(undefined, undefined, err)) return;
      const src: RuleSource = { binding: b, bindingKind: 'ClusterRoleBinding', subject };
      for (const r of rules) if (!visit(src, r, undefined)) return;
    }
    if (!namespace) return;
    for (const b of this.source.listRoleBindings(namespace)) {
      const subject = appliesToUser(user, b, namespace);
      if (!subject) continue;
      const { rules, err } = this.rulesOf(b.roleRef, namespace);
      if (err && !visit(undefined, undefined, err)) return;
      const src: RuleSource = { binding: b, bindingKind: 'RoleBinding', subject };
      for (const r of rules) if (!visit(src, r, undefined)) return;
    }
  }

  /** Every rule of the user in the namespace, and the errors met on the way. */
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_s, r, e) => {
      if (r) rules.push(r);
      if (e) errors.push(e);
      return true;
    });
    return { rules, errors };
  }
}
