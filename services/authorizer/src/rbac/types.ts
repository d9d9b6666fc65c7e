// The authorizer role of this service. The RBAC objects it reads and the attributes it decides
// on are the shared types of @orch/apimachinery/auth.
import type {
  Attributes,
  AuthorizationResult,
  RulesReviewResult,
  UserInfo,
} from '@orch/apimachinery/auth';

/** The authorizer role of this service (k8s authorizer.Authorizer + RuleResolver). */
export interface Authorizer {
  authorize(a: Attributes): AuthorizationResult;
  rulesFor(user: UserInfo, namespace: string): RulesReviewResult;
}
