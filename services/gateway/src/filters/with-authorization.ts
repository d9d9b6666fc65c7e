// Authorization (k8s WithAuthorization + GetAuthorizerAttributes): the request's attributes go to
// the authorizer; only an explicit allow passes. A denial or no opinion is 403 with a Status
// naming the user, the verb and the resource; an authorizer that cannot answer is 503.
import { anonymousUserInfo } from '@orch/apimachinery/auth';
import type { Handler } from '../http/handler.js';
import { writeErrorNegotiated } from '../negotiation/response-writers.js';
import { addAuditAnnotation, userFrom, withUser } from '../request/context.js';
import { attributesFor } from '../authz/attributes-for.js';
import type { Authorizer } from '../authz/authorizer.js';
import { forbidden } from '../authz/forbidden.js';

/** The audit annotations of the decision (upstream's authorization.k8s.io/decision and reason). */
export const decisionAnnotation = 'authorization.orch.io/decision';
export const reasonAnnotation = 'authorization.orch.io/reason';

export const withAuthorization =
  (next: Handler, authorizer: Authorizer): Handler =>
  async (req, res) => {
    let user = userFrom(req);
    if (!user) {
      user = anonymousUserInfo();
      withUser(req, user);
    }
    const a = attributesFor(req, user);
    let answer;
    try {
      answer = await authorizer.authorize(a);
    } catch (err) {
      return writeErrorNegotiated(req, res, err);
    }
    addAuditAnnotation(req, decisionAnnotation, answer.decision === 'allow' ? 'allow' : 'forbid');
    addAuditAnnotation(req, reasonAnnotation, answer.reason ?? '');
    if (answer.decision === 'allow') return next(req, res);
    writeErrorNegotiated(req, res, forbidden(a, answer.reason));
  };
