// Whether an admission rule applies to a request: operations, apiGroups, apiVersions,
// resources (with subresource forms) and scope, and the named-rule lists (resourceNames) of
// policies. Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules/rules.go
// (Matcher) and plugin/policy/matching/matching.go (matchesResourceRules).
import type { AdmissionRequest } from '../interfaces.js';

/** admissionregistration/v1 RuleWithOperations as stored (every list may be missing). */
export interface RuleWithOperations {
  /** `CREATE`, `UPDATE`, `DELETE`, `CONNECT` or `*`. */
  operations?: readonly string[] | null;
  /** `''` is the core group, `*` all groups. */
  apiGroups?: readonly string[] | null;
  /** `*` all versions. */
  apiVersions?: readonly string[] | null;
  // `*` every resource without subresources, `*/*` every resource with every subresource,
  // `pods` the resource alone, `pods/*` every subresource of pods, `*/status` every status
  // subresource, `pods/status` one subresource. As upstream's code, a `*` subresource also
  // matches the resource itself (`pods/*` matches pods).
  resources?: readonly string[] | null;
  /** `Cluster`, `Namespaced` or `*` (the default). */
  scope?: string | null;
}

/** admissionregistration/v1 NamedRuleWithOperations: a rule narrowed to some object names. */
export interface NamedRuleWithOperations extends RuleWithOperations {
  /** Empty or missing: every name. */
  resourceNames?: readonly string[] | null;
}

/** The subset of a request rules look at. */
export type RuleAttributes = Pick<
  AdmissionRequest,
  'operation' | 'resource' | 'subResource' | 'namespace' | 'name'
>;

function exactOrWildcard(items: readonly string[] | null | undefined, requested: string): boolean {
  return (items ?? []).some((item) => item === '*' || item === requested);
}

function isNamespaceResource(attrs: RuleAttributes): boolean {
  return attrs.resource.group === '' && attrs.resource.resource === 'namespaces';
}

function scopeMatches(scope: string | null | undefined, attrs: RuleAttributes): boolean {
  if (scope === undefined || scope === null || scope === '*') return true;
  switch (scope) {
    // A Namespace object is cluster-scoped even though its requests carry its own name as
    // namespace (as upstream's request info does).
    case 'Namespaced':
      return !isNamespaceResource(attrs) && attrs.namespace !== '';
    case 'Cluster':
      return isNamespaceResource(attrs) || attrs.namespace === '';
    default:
      return false;
  }
}

function resourceMatches(resources: readonly string[] | null | undefined, attrs: RuleAttributes) {
  const opRes = attrs.resource.resource;
  const opSub = attrs.subResource;
  return (resources ?? []).some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === opRes) && (sub === '*' || sub === opSub);
  });
}

/** True when `rule` applies to the request (upstream rules.Matcher.Matches). */
export function ruleMatches(rule: RuleWithOperations, attrs: RuleAttributes): boolean {
  return (
    scopeMatches(rule.scope, attrs) &&
    exactOrWildcard(rule.operations, attrs.operation) &&
    exactOrWildcard(rule.apiGroups, attrs.resource.group) &&
    exactOrWildcard(rule.apiVersions, attrs.resource.version) &&
    resourceMatches(rule.resources, attrs)
  );
}

/** True when any of `rules` applies to the request (a webhook's `rules`). */
export function anyRuleMatches(
  rules: readonly RuleWithOperations[] | null | undefined,
  attrs: RuleAttributes
): boolean {
  return (rules ?? []).some((rule) => ruleMatches(rule, attrs));
}

/**
 * True when any named rule applies: the rule matches and its resourceNames are empty or hold
 * the request's name (upstream matchesResourceRules; used for resourceRules and
 * excludeResourceRules).
 */
export function namedRulesMatch(
  rules: readonly NamedRuleWithOperations[] | null | undefined,
  attrs: RuleAttributes
): boolean {
  return (rules ?? []).some((rule) => {
    if (!ruleMatches(rule, attrs)) return false;
    const names = rule.resourceNames ?? [];
    return names.length === 0 || names.includes(attrs.name);
  });
}
