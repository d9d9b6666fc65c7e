// A promise-based client of orch.authz.v1.Authorizer with a deadline on every call and errors
// rebuilt as StatusError.
import type { ChannelCredentials } from '@grpc/grpc-js';
import { channelOptions, authorizerProto } from '@orch/proto';
import type { AuthorizerClient as GrpcAuthorizerClient } from '@orch/proto';
import { fromGrpcError } from '../errors/index.js';

export interface AuthorizeUser {
  user: string;
  groups: string[];
  uid: string;
  extra: Record<string, string[]>;
}

export interface AuthorizeAttributes extends AuthorizeUser {
  verb: string;
  isResourceRequest: boolean;
  path: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

/** An authorizer's answer (k8s authorizer.Decision); the gateway refuses all but allow. */
export type Decision = 'allow' | 'deny' | 'no-opinion';

export interface AuthorizeResult {
  decision: Decision;
  reason: string;
  evaluationError: string;
  /** Revision through which each kind of policy object was applied when deciding. */
  policyRevisions: Record<string, number>;
  /** The decision holds for any resource name. */
  nameIndependent: boolean;
}

export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
}

export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface RulesReviewResult {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  incomplete: boolean;
  evaluationError: string;
}

export interface AuthorizerClientOptions {
  address: string;
  credentials: ChannelCredentials;
  timeoutMs?: number;
}

const extraOf = (extra: Record<string, string[]>): Record<string, { values: string[] }> =>
  Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, { values: v }]));

const decisions: Record<string, AuthorizeResult['decision']> = {
  DECISION_ALLOW: 'allow',
  DECISION_DENY: 'deny',
  DECISION_NO_OPINION: 'no-opinion',
};

export class AuthorizerClient {
  readonly #client: GrpcAuthorizerClient;
  readonly #timeoutMs: number;

  constructor(opts: AuthorizerClientOptions) {
    this.#client = new authorizerProto.orch.authz.v1.Authorizer(opts.address, opts.credentials, {
      ...channelOptions,
      'grpc.keepalive_time_ms': 30_000,
      'grpc.ssl_target_name_override': 'authorizer',
    });
    this.#timeoutMs = opts.timeoutMs ?? 5_000;
  }

  authorize(a: AuthorizeAttributes): Promise<AuthorizeResult> {
    return new Promise((resolve, reject) => {
      this.#client.Authorize(
        {
          user: a.user,
          groups: a.groups,
          uid: a.uid,
          extra: extraOf(a.extra),
          verb: a.verb,
          api_group: a.apiGroup,
          api_version: a.apiVersion,
          resource: a.resource,
          subresource: a.subresource,
          namespace: a.namespace,
          name: a.name,
          is_resource_request: a.isResourceRequest,
          path: a.path,
        },
        { deadline: Date.now() + this.#timeoutMs },
        (err, res) => {
          if (err || !res) return reject(fromGrpcError(err, 'authorizer Authorize'));
          resolve({
            decision: decisions[res.decision] ?? 'no-opinion',
            reason: res.reason,
            evaluationError: res.evaluation_error,
            policyRevisions: res.policy_revisions ?? {},
            nameIndependent: res.name_independent === true,
          });
        }
      );
    });
  }

  rulesReview(u: AuthorizeUser, namespace: string): Promise<RulesReviewResult> {
    return new Promise((resolve, reject) => {
      this.#client.RulesReview(
        { user: u.user, groups: u.groups, uid: u.uid, extra: extraOf(u.extra), namespace },
        { deadline: Date.now() + this.#timeoutMs },
        (err, res) => {
          if (err || !res) return reject(fromGrpcError(err, 'authorizer RulesReview'));
          resolve({
            resourceRules: res.resource_rules.map((r) => ({ verbs: r.verbs, apiGroups: r.api_groups, resources: r.resources, resourceNames: r.resource_names })),
            nonResourceRules: res.non_resource_rules.map((r) => ({ verbs: r.verbs, nonResourceURLs: r.non_resource_urls })),
            incomplete: res.incomplete,
            evaluationError: res.evaluation_error,
          });
        }
      );
    });
  }

  close(): void {
    this.#client.close();
  }
}
