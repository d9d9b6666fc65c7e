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
import type { Attributes } from '@orch/apimachinery/auth';
import {
  attributesFromProto,
  authorizationResultToProto,
  rulesReviewToProto,
  userFromProto,
} from '@orch/apimachinery/grpc';
import type { Authorizer } from '../rbac/types.js';

export interface AuthorizerServiceMetrics {
  latency: Histogram<'rpc' | 'code'>;
  decisions: Counter<'decision'>;
}

/** Attributes of a request; a request that names nothing to decide on is a BadRequest. */
export function attributesOf(r: AuthorizeRequest__Output): Attributes {
  if (!r.verb) throw newBadRequest('verb is required');
  if (r.is_resource_request && !r.resource)
    throw newBadRequest('resource is required for a resource request');
  if (!r.is_resource_request && !r.path)
    throw newBadRequest('path is required for a non-resource request');
  return attributesFromProto(r);
}

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
      return authorizationResultToProto({ ...result, policyRevisions: policyRevisions() });
    }),
    RulesReview: unary<RulesReviewRequest__Output, RulesReviewResponse>('RulesReview', (req) => {
      return rulesReviewToProto(authorizer.rulesFor(userFromProto(req), req.namespace));
    }),
  };
}
