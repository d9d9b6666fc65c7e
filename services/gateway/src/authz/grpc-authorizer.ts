// The Authorizer role answered by the authorizer service over gRPC (mutual TLS). Any failure to
// get an answer is a 503 for the request: authorization fails closed, never open.
import { newServiceUnavailable, toStatusError } from '@orch/apimachinery/errors';
import type {
  Attributes,
  AuthorizationResult,
  RulesReviewResult,
  UserInfo,
} from '@orch/apimachinery/auth';
import type { AuthorizerClient } from '@orch/apimachinery/grpc';
import type { Authorizer } from './authorizer.js';

/** The authorizer's view of a user's rules in a namespace (SelfSubjectRulesReview, escalation checks). */
export interface RuleReviewer {
  rulesReview(user: UserInfo, namespace: string): Promise<RulesReviewResult>;
}

export class GrpcAuthorizer implements Authorizer, RuleReviewer {
  constructor(private readonly client: AuthorizerClient) {}

  async authorize(a: Attributes): Promise<AuthorizationResult> {
    try {
      const r = await this.client.authorize(a);
      return {
        decision: r.decision,
        reason: r.reason,
        policyRevisions: r.policyRevisions,
        nameIndependent: r.nameIndependent,
      };
    } catch (err) {
      throw failClosed(err);
    }
  }

  async rulesReview(user: UserInfo, namespace: string): Promise<RulesReviewResult> {
    try {
      return await this.client.rulesReview(user, namespace);
    } catch (err) {
      throw failClosed(err);
    }
  }
}

function failClosed(err: unknown): Error {
  const se = toStatusError(err);
  if (se.code === 400) return se;
  return newServiceUnavailable(`authorization is unavailable: ${se.message}`);
}
