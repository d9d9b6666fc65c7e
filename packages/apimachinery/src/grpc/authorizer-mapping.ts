// The one mapping between the authorizer's proto messages (orch.authz.v1) and the
// `@orch/apimachinery/auth` types, one function pair per message family: the client sends with
// the *ToProto functions and reads with the *FromProto ones, the service the other way round.
import type {
  AuthorizeRequest,
  AuthorizeRequest__Output,
  AuthorizeResponse,
  AuthorizeResponse__Output,
  RulesReviewRequest,
  RulesReviewResponse,
  RulesReviewResponse__Output,
} from '@orch/proto';
import type {
  Attributes,
  AuthorizationResult,
  Decision,
  RulesReviewResult,
  UserInfo,
} from '../auth/index.js';

// The user fields the Authorize and RulesReview requests carry flat.
type IdentityFields = 'user' | 'groups' | 'uid' | 'extra';

export function userToProto(u: UserInfo): Required<Pick<RulesReviewRequest, IdentityFields>> {
  const extra = Object.fromEntries(Object.entries(u.extra).map(([k, v]) => [k, { values: v }]));
  return { user: u.name, groups: u.groups, uid: u.uid, extra };
}

export function userFromProto(r: Pick<RulesReviewRequest, IdentityFields>): UserInfo {
  const extra: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(r.extra ?? {})) extra[k] = v.values ?? [];
  return { name: r.user ?? '', uid: r.uid ?? '', groups: r.groups ?? [], extra };
}

export function attributesToProto(a: Attributes): AuthorizeRequest {
  return {
    ...userToProto(a.user),
    verb: a.verb,
    api_group: a.apiGroup,
    api_version: a.apiVersion,
    resource: a.resource,
    subresource: a.subresource,
    namespace: a.namespace,
    name: a.name,
    is_resource_request: a.isResourceRequest,
    path: a.path,
  };
}

export function attributesFromProto(r: AuthorizeRequest__Output): Attributes {
  return {
    user: userFromProto(r),
    verb: r.verb,
    isResourceRequest: r.is_resource_request,
    path: r.path,
    apiGroup: r.api_group,
    apiVersion: r.api_version,
    resource: r.resource,
    subresource: r.subresource,
    namespace: r.namespace,
    name: r.name,
  };
}

const decisionToProto = {
  allow: 'DECISION_ALLOW',
  deny: 'DECISION_DENY',
  'no-opinion': 'DECISION_NO_OPINION',
} as const satisfies Record<Decision, string>;

const decisionFromProto: Record<string, Decision> = {
  DECISION_ALLOW: 'allow',
  DECISION_DENY: 'deny',
  DECISION_NO_OPINION: 'no-opinion',
};

export function authorizationResultToProto(r: AuthorizationResult): AuthorizeResponse {
  return {
    decision: decisionToProto[r.decision],
    reason: r.reason,
    evaluation_error: r.evaluationError ?? '',
    policy_revisions: r.policyRevisions ?? {},
    name_independent: r.nameIndependent === true,
  };
}

/** An unknown decision reads as no opinion (the gateway then refuses). */
export function authorizationResultFromProto(res: AuthorizeResponse__Output): AuthorizationResult {
  return {
    decision: decisionFromProto[res.decision] ?? 'no-opinion',
    reason: res.reason,
    evaluationError: res.evaluation_error,
    policyRevisions: res.policy_revisions ?? {},
    nameIndependent: res.name_independent === true,
  };
}

export function rulesReviewToProto(r: RulesReviewResult): RulesReviewResponse {
  return {
    resource_rules: r.resourceRules.map((x) => ({
      verbs: x.verbs,
      api_groups: x.apiGroups,
      resources: x.resources,
      resource_names: x.resourceNames,
    })),
    non_resource_rules: r.nonResourceRules.map((x) => ({
      verbs: x.verbs,
      non_resource_urls: x.nonResourceURLs,
    })),
    incomplete: r.incomplete,
    evaluation_error: r.evaluationError,
  };
}

export function rulesReviewFromProto(res: RulesReviewResponse__Output): RulesReviewResult {
  return {
    resourceRules: res.resource_rules.map((x) => ({
      verbs: x.verbs,
      apiGroups: x.api_groups,
      resources: x.resources,
      resourceNames: x.resource_names,
    })),
    nonResourceRules: res.non_resource_rules.map((x) => ({
      verbs: x.verbs,
      nonResourceURLs: x.non_resource_urls,
    })),
    incomplete: res.incomplete,
    evaluationError: res.evaluation_error,
  };
}
