// RBAC rules (rbac.authorization.orch.io/v1 PolicyRule) and the rules a user holds as a rule
// resolver answers them (k8s authorizer.ResourceRuleInfo / NonResourceRuleInfo, RulesFor).

/** One rule of a Role or ClusterRole (k8s rbacv1.PolicyRule). */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** A resource rule a user holds (k8s authorizer.ResourceRuleInfo). */
export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
}

/** A non-resource rule a user holds (k8s authorizer.NonResourceRuleInfo). */
export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs: string[];
}

/** The rules a user holds in a namespace (k8s RuleResolver.RulesFor; SelfSubjectRulesReview). */
export interface RulesReviewResult {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  incomplete: boolean;
  evaluationError: string;
}
