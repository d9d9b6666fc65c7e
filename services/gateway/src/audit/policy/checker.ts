// The policy checker (upstream's audit/policy/checker.go): the first rule that matches a request
// decides its level; a request no rule matches is not audited. Each rule's omitStages is joined
// with the policy's, and a rule's omitManagedFields overrides the policy's.
import type { AuditAttributes, Policy, PolicyRule, RequestAuditConfig, Stage } from './types.js';

export type PolicyRuleEvaluator = (attrs: AuditAttributes) => RequestAuditConfig;

export const unionStages = (a: readonly Stage[] = [], b: readonly Stage[] = []): Stage[] => [
  ...new Set([...a, ...b]),
];

export function newPolicyRuleEvaluator(policy: Policy): PolicyRuleEvaluator {
  const global = policy.omitManagedFields ?? false;
  const rules = policy.rules.map((r) => ({
    rule: r,
    config: {
      level: r.level,
      omitStages: unionStages(policy.omitStages, r.omitStages),
      omitManagedFields: r.omitManagedFields ?? global,
    },
  }));
  const none: RequestAuditConfig = {
    level: 'None',
    omitStages: unionStages(policy.omitStages),
    omitManagedFields: global,
  };
  return (attrs) => rules.find(({ rule }) => ruleMatches(rule, attrs))?.config ?? none;
}

/** Every request at one level: orch's audit log when no policy file is given. */
export const fixedLevelEvaluator =
  (config: RequestAuditConfig): PolicyRuleEvaluator =>
  () =>
    config;

export function ruleMatches(r: PolicyRule, attrs: AuditAttributes): boolean {
  const user = attrs.user;
  if (r.users?.length && (!user || !r.users.includes(user.name))) return false;
  if (r.userGroups?.length && (!user || !user.groups.some((g) => r.userGroups!.includes(g))))
    return false;
  if (r.verbs?.length && !r.verbs.includes(attrs.verb)) return false;
  if (r.namespaces?.length || r.resources?.length) return ruleMatchesResource(r, attrs);
  if (r.nonResourceURLs?.length) return ruleMatchesNonResource(r, attrs);
  return true;
}

function ruleMatchesNonResource(r: PolicyRule, attrs: AuditAttributes): boolean {
  if (attrs.isResourceRequest) return false;
  return r.nonResourceURLs!.some((spec) => pathMatches(attrs.path, spec));
}

const pathMatches = (path: string, spec: string): boolean =>
  spec === '*' ||
  spec === path ||
  (spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, '')));

function ruleMatchesResource(r: PolicyRule, attrs: AuditAttributes): boolean {
  if (!attrs.isResourceRequest) return false;
  if (r.namespaces?.length && !r.namespaces.includes(attrs.namespace ?? '')) return false;
  if (!r.resources?.length) return true;
  const resource = attrs.resource ?? '';
  const subresource = attrs.subresource ?? '';
  const combined = subresource ? `${resource}/${subresource}` : resource;
  const name = attrs.name ?? '';
  return r.resources.some((gr) => {
    if ((gr.group ?? '') !== (attrs.apiGroup ?? '')) return false;
    if (!gr.resources?.length) return true;
    if (gr.resourceNames?.length && !gr.resourceNames.includes(name)) return false;
    return gr.resources.some(
      (res) =>
        res === combined ||
        res === '*' ||
        (subresource !== '' && res.startsWith('*/') && res.slice(2) === subresource) ||
        (res.endsWith('/*') && res.slice(0, -2) === resource)
    );
  });
}
