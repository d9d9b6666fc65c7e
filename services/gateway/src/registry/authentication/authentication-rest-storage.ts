// The REST objects of authentication (k8s pkg/registry/authentication/rest, and the
// serviceaccounts/token subresource of pkg/registry/core/serviceaccount): TokenReview and
// SelfSubjectReview in each served version, TokenRequest where service-account tokens are minted.
import type { Authentication } from '../../authn/build-authentication.js';
import { TokenRequestRest } from '../core/serviceaccounts/token-request.js';
import { restKey } from '../rest.js';
import type { Storage } from '../rest.js';
import type { Store } from '../store.js';
import { SelfSubjectReviewRest, selfSubjectReviewVersions } from './self-subject-review.js';
import { TokenReviewRest, tokenReviewVersions } from './token-review.js';

/** Keyed `<group>/<version>/<resource>[/<subresource>]`, as buildRestStorage's `more`. */
export function authenticationRestStorage(
  authn: Pick<Authentication, 'tokens' | 'apiAudiences' | 'tokenIssuer'>,
  stores: Map<string, Store>
): Map<string, Storage> {
  const rest = new Map<string, Storage>();
  const { tokens, apiAudiences, tokenIssuer } = authn;
  const serviceAccounts = stores.get('/v1/serviceaccounts');
  if (tokenIssuer && serviceAccounts) {
    const pods = stores.get('/v1/pods');
    const secrets = stores.get('/v1/secrets');
    const deps = { ...tokenIssuer, apiAudiences, serviceAccounts, pods, secrets };
    const serviceAccountsV1 = { group: '', version: 'v1', resource: 'serviceaccounts' };
    rest.set(restKey(serviceAccountsV1, 'token'), new TokenRequestRest(deps));
  }
  for (const v of tokenReviewVersions) {
    const review = new TokenReviewRest(v, tokens, apiAudiences);
    rest.set(restKey(review.objectKind), review);
  }
  for (const v of selfSubjectReviewVersions) {
    const self = new SelfSubjectReviewRest(v);
    rest.set(restKey(self.objectKind), self);
  }
  return rest;
}
