export type { UserInfo } from './user-info.js';
export {
  allAuthenticated,
  allServiceAccountsGroup,
  allUnauthenticated,
  anonymousUser,
  anonymousUserInfo,
  serviceAccountPrefix,
} from './user-info.js';
export type { Attributes } from './attributes.js';
export type { AuthorizationResult, Decision } from './decision.js';
export type {
  NonResourceRuleInfo,
  PolicyRule,
  ResourceRuleInfo,
  RulesReviewResult,
} from './policy-rule.js';
export type { AggregationRule, Role, RoleBinding, RoleRef, Subject } from './role.js';
