// The authorizer messages mapped to proto, through the real wire encoding, and back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authorizerProto } from '@orch/proto';
import type {
  AuthorizeRequest__Output,
  AuthorizeResponse__Output,
  RulesReviewRequest__Output,
  RulesReviewResponse__Output,
} from '@orch/proto';
import type { Attributes, AuthorizationResult, RulesReviewResult } from '../auth/index.js';
import {
  attributesFromProto,
  attributesToProto,
  authorizationResultFromProto,
  authorizationResultToProto,
  rulesReviewFromProto,
  rulesReviewToProto,
  userFromProto,
  userToProto,
} from './authorizer-mapping.js';

const service = authorizerProto.orch.authz.v1.Authorizer.service;

interface Method {
  requestSerialize: (x: never) => Buffer;
  requestDeserialize: (b: Buffer) => unknown;
  responseSerialize: (x: never) => Buffer;
  responseDeserialize: (b: Buffer) => unknown;
}
/** A request encoded as protobuf bytes and decoded again, as the server reads it. */
const wire = <T>(m: Method, x: unknown): T =>
  m.requestDeserialize(m.requestSerialize(x as never)) as T;
/** A response encoded and decoded, as the client reads it. */
const wireResponse = <T>(m: Method, x: unknown): T =>
  m.responseDeserialize(m.responseSerialize(x as never)) as T;

const user = {
  name: 'alice',
  uid: 'u-1',
  groups: ['devs', 'system:authenticated'],
  extra: { scopes: ['a', 'b'] },
};

test('attributes survive the Authorize request, the user nested on both sides', () => {
  const a: Attributes = {
    user,
    verb: 'get',
    isResourceRequest: true,
    path: '/apis/apps/v1/namespaces/ns1/deployments/web/status',
    apiGroup: 'apps',
    apiVersion: 'v1',
    resource: 'deployments',
    subresource: 'status',
    namespace: 'ns1',
    name: 'web',
  };
  const r = wire<AuthorizeRequest__Output>(service.Authorize, attributesToProto(a));
  assert.equal(r.user, 'alice');
  assert.deepEqual(r.extra, { scopes: { values: ['a', 'b'] } });
  assert.deepEqual(attributesFromProto(r), a);
});

test('a user without extra or groups reads back empty, not undefined', () => {
  const empty = { name: 'system:anonymous', uid: '', groups: [], extra: {} };
  const req = { ...userToProto(empty), namespace: 'x' };
  const r = wire<RulesReviewRequest__Output>(service.RulesReview, req);
  assert.deepEqual(userFromProto(r), empty);
  assert.equal(r.namespace, 'x');
});

test('each decision and its fields survive the Authorize response', () => {
  for (const decision of ['allow', 'deny', 'no-opinion'] as const) {
    const result: AuthorizationResult = {
      decision,
      reason: `because ${decision}`,
      evaluationError: 'role "x" not found',
      policyRevisions: { roles: 12, clusterroles: 7 },
      nameIndependent: decision !== 'deny',
    };
    const sent = authorizationResultToProto(result);
    const res = wireResponse<AuthorizeResponse__Output>(service.Authorize, sent);
    assert.deepEqual(authorizationResultFromProto(res), result);
  }
  const unset = wireResponse<AuthorizeResponse__Output>(
    service.Authorize,
    authorizationResultToProto({ decision: 'allow', reason: '' })
  );
  assert.deepEqual(authorizationResultFromProto(unset), {
    decision: 'allow',
    reason: '',
    evaluationError: '',
    policyRevisions: {},
    nameIndependent: false,
  });
});

test('rules survive the RulesReview response', () => {
  const rules: RulesReviewResult = {
    resourceRules: [
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: [] },
      {
        verbs: ['update'],
        apiGroups: ['apps'],
        resources: ['deployments/scale'],
        resourceNames: ['web'],
      },
    ],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/api/*'] }],
    incomplete: true,
    evaluationError: 'clusterrole "gone" not found',
  };
  const sent = rulesReviewToProto(rules);
  const res = wireResponse<RulesReviewResponse__Output>(service.RulesReview, sent);
  assert.deepEqual(rulesReviewFromProto(res), rules);
});
