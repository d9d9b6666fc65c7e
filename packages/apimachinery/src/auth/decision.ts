// An authorizer's answer (k8s authorizer.Decision and the reason and error returned with it).

/**
 * k8s authorizer.DecisionAllow / DecisionDeny / DecisionNoOpinion; the gateway refuses all but
 * allow.
 */
export type Decision = 'allow' | 'deny' | 'no-opinion';

/** A decision with its reason (k8s Authorize's (Decision, reason, error) triple). */
export interface AuthorizationResult {
  decision: Decision;
  reason: string;
  /** Why the decision may be incomplete (rules that could not be read); empty or unset if none. */
  evaluationError?: string;
  /** Through which revision of each kind of policy object the decision was made (for caching). */
  policyRevisions?: Record<string, number>;
  /**
   * True when the request's resource name played no part: the decision is the same for any name
   * (allowed by a rule without resourceNames, or no rule with resourceNames applies). Unset means
   * it may depend on the name.
   */
  nameIndependent?: boolean;
}
