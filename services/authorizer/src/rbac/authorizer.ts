// The RBAC authorizer (k8s plugin/pkg/auth/authorizer/rbac): allow when some rule of the user
// covers the request, otherwise no opinion (the gateway denies what nobody allows).
import { ruleAllows } from './rule-matcher.js';
import type { RbacSource, RuleSource } from './rule-resolver.js';
import { RuleResolver } from './rule-resolver.js';
import type {
  Attributes,
  AuthorizationResult,
  RulesReviewResult,
  UserInfo,
} from '@orch/apimachinery/auth';
import type { Authorizer } from './types.js';

function describe(src: RuleSource): string {
  const b = src.binding;
  const where =
    src.bindingKind === 'RoleBinding' ? ` in namespace "${b.metadata.namespace ?? ''}"` : '';
  const subject =
    src.subject.kind === 'ServiceAccount'
      ? `ServiceAccount "${src.subject.namespace ?? b.metadata.namespace ?? ''}/${src.subject.name}"`
      : `${src.subject.kind} "${src.subject.name}"`;
  return `RBAC: allowed by ${src.bindingKind} "${b.metadata.name ?? ''}"${where} of ${b.roleRef.kind} "${b.roleRef.name}" to ${subject}`;
}

export class RbacAuthorizer implements Authorizer {
  readonly resolver: RuleResolver;

  constructor(source: RbacSource) {
    this.resolver = new RuleResolver(source);
  }

  authorize(a: Attributes): AuthorizationResult {
    let allowedBy: RuleSource | undefined;
    let allowedByName = false;
    let namedRuleApplies = false; // a rule with resourceNames covers everything but the name
    const errors: string[] = [];
    this.resolver.visitRulesFor(
      a.user,
      a.isResourceRequest ? a.namespace : '',
      (src, rule, err) => {
        if (err) errors.push(err);
        if (!src || !rule) return true;
        const named = (rule.resourceNames ?? []).length > 0;
        if (
          a.isResourceRequest &&
          named &&
          ruleAllows({ ...a, name: '' }, { ...rule, resourceNames: [] })
        )
          namedRuleApplies = true;
        if (ruleAllows(a, rule)) {
          allowedBy = src;
          allowedByName = named;
          return false;
        }
        return true;
      }
    );
    if (allowedBy)
      return { decision: 'allow', reason: describe(allowedBy), nameIndependent: !allowedByName };
    // Rules the resolver could not read might have named this object: then the name matters.
    const result: AuthorizationResult = {
      decision: 'no-opinion',
      reason: '',
      nameIndependent: !namedRuleApplies && errors.length === 0,
    };
    if (errors.length > 0) result.evaluationError = errors.join('; ');
    return result;
  }

  rulesFor(user: UserInfo, namespace: string): RulesReviewResult {
    const { rules, errors } = this.resolver.rulesFor(user, namespace);
    return {
      resourceRules: rules
        .filter((r) => (r.resources ?? []).length > 0)
        .map((r) => ({
          verbs: r.verbs,
          apiGroups: r.apiGroups ?? [],
          resources: r.resources ?? [],
          resourceNames: r.resourceNames ?? [],
        })),
      nonResourceRules: rules
        .filter((r) => (r.nonResourceURLs ?? []).length > 0)
        .map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs ?? [] })),
      incomplete: errors.length > 0,
      evaluationError: errors.join('; '),
    };
  }
}
