// Matching of admission webhooks and policies to requests (rules, selectors, matchPolicy),
// shared by the webhook plugins and ValidatingAdmissionPolicy.
export type { CompiledSelector } from './compiled-selector.js';
export { compileSelector } from './compiled-selector.js';
export type { EquivalentResourceMapper, MatchedResource } from './equivalent-resources.js';
export {
  builtinEquivalentResources,
  equivalentResourceMapper,
  versionedRequest,
} from './equivalent-resources.js';
export { ServedEquivalentResources } from './served-equivalent-resources.js';
export type { MatchCriteria } from './matcher.js';
export { Matcher, mayMatch } from './matcher.js';
export type { NamespaceAttributes } from './namespace-matcher.js';
export { NamespaceMatcher } from './namespace-matcher.js';
export { matchObjectSelector } from './object-matcher.js';
export type {
  NamedRuleWithOperations,
  RuleAttributes,
  RuleWithOperations,
} from './rule-matcher.js';
export { anyRuleMatches, namedRulesMatch, ruleMatches } from './rule-matcher.js';
