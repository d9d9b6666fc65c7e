// Several authorizers in order (k8s pkg/authorization/union): the first that allows or denies
// decides; no opinion passes to the next. Rules reviews concatenate.
import type { AuthorizationResult } from '@orch/apimachinery/auth';
import type { Authorizer } from './rbac/types.js';

export function union(...authorizers: Authorizer[]): Authorizer {
  return {
    authorize(a) {
      const errors: string[] = [];
      const reasons: string[] = [];
      let nameIndependent = true;
      for (const z of authorizers) {
        const r = z.authorize(a);
        if (r.decision !== 'no-opinion')
          return nameIndependent ? r : { ...r, nameIndependent: false };
        if (r.reason) reasons.push(r.reason);
        if (r.evaluationError) errors.push(r.evaluationError);
        nameIndependent &&= r.nameIndependent === true;
      }
      const out: AuthorizationResult = {
        decision: 'no-opinion',
        reason: reasons.join('; '),
        nameIndependent,
      };
      if (errors.length) out.evaluationError = errors.join('; ');
      return out;
    },
    rulesFor(user, namespace) {
      const parts = authorizers.map((z) => z.rulesFor(user, namespace));
      return {
        resourceRules: parts.flatMap((p) => p.resourceRules),
        nonResourceRules: parts.flatMap((p) => p.nonResourceRules),
        incomplete: parts.some((p) => p.incomplete),
        evaluationError: parts
          .map((p) => p.evaluationError)
          .filter(Boolean)
          .join('; '),
      };
    },
  };
}
