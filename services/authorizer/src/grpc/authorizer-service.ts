// The orch.authz.v1.Authorizer gRPC service over an authorizer mode.
import { newBadRequest, newServiceUnavailable } from '@orch/apimachinery/errors';
import { unaryHandlers } from '@orch/component-base/grpc-server';
import type {
  AuthorizeRequest__Output,
  AuthorizeResponse,
  AuthorizerHandlers,
  RulesReviewRequest__Output,
  RulesReviewResponse,
} from '@orch/proto';
import type { Counter, Histogram } from 'prom-client';
import type { Attributes, Authorizer, PolicyRule, UserAttributes } from '../rbac/types.js';

export interface AuthorizerServiceMetrics {
  latency: Histogram<'rpc' | 'code'>;
  decisions: Counter<'decision'>;
}

type Extra = { [k: string]: { values: string[] } };

function userOf(r: { user: string; groups: string[]; uid: string; extra: Extra }): UserAttributes {
  const extra: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(r.extra ?? {})) extra[k] = v.values;
  return { name: r.user, groups: r.groups, uid: r.uid, extra };
}

/** Attributes of a request; a request that names nothing to decide on is a BadRequest. */
export function attributesOf(r: AuthorizeRequest__Output): Attributes {
  if (!r.verb) throw newBadRequest('verb is required');
  if (r.is_resource_request && !r.resource) throw newBadRequest('resource is required for a resource request');
  if (!r.is_resource_request && !r.path) throw newBadRequest('path is required for a non-resource request');
  return {
    user: userOf(r as unknown as { user: string; groups: string[]; uid: string; extra: Extra }),
    verb: r.verb,
    isResourceRequest: r.is_resource_request,
    path: r.path,
    apiGroup: r.api_group,
    resource: r.resource,
    subresource: r.subresource,
    namespace: r.namespace,
    name: r.name,
  };
}

const decisionName = { allow: 'DECISION_ALLOW', deny: 'DECISION_DENY', 'no-opinion': 'DECISION_NO_OPINION' } as const;

const resourceRule = (r: PolicyRule) => ({
  verbs: r.verbs,
  api_groups: r.apiGroups ?? [],
  resources: r.resources ?? [],
  resource_names: r.resourceNames ?? [],
});

/**
 * The service; `policyRevisions` says which policy the decisions stand on (callers cache by it);
 * `ready` is false until the RBAC caches are synced (a decision on a partial cache could deny
 * wrongly), and calls then fail as unavailable. It does not wait for the bootstrap policy: that
 * is written through the gateway, which asks this service about each of those writes.
 */
export function authorizerService(
  authorizer: Authorizer,
  metrics: AuthorizerServiceMetrics,
  ready: () => boolean = () => true,
  policyRevisions: () => Record<string, number> = () => ({})
): AuthorizerHandlers {
  const unary = unaryHandlers({
    latency: metrics.latency,
    label: 'rpc',
    notReady: () =>
      ready()
        ? undefined
        : newServiceUnavailable('the authorizer is starting: its RBAC caches are not synced yet'),
  });
  return {
    Authorize: unary<AuthorizeRequest__Output, AuthorizeResponse>('Authorize', (req) => {
      const result = authorizer.authorize(attributesOf(req));
      metrics.decisions.inc({ decision: result.decision });
      return {
        decision: decisionName[result.decision],
        reason: result.reason,
        evaluation_error: result.evaluationError ?? '',
        policy_revisions: policyRevisions(),
        name_independent: result.nameIndependent === true,
      };
    }),
    RulesReview: unary<RulesReviewRequest__Output, RulesReviewResponse>('RulesReview', (req) => {
      const r = authorizer.rulesFor(userOf(req as unknown as { user: string; groups: string[]; uid: string; extra: Extra }), req.namespace);
      return {
        resource_rules: r.resourceRules.map(resourceRule),
        non_resource_rules: r.nonResourceRules.map((n) => ({ verbs: n.verbs, non_resource_urls: n.nonResourceURLs ?? [] })),
        incomplete: r.incomplete,
        evaluation_error: r.evaluationError,
      };
    }),
  };
}
