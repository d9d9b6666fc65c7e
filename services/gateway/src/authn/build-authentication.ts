// Builds the gateway's authenticators from its flags (k8s BuiltInAuthenticationOptions.ToAuthenticationConfig):
// request-level ones in order (authenticating proxy, client certificates, bearer tokens), the token
// union behind the bearer header and TokenReview, and the REST objects authentication serves
// (TokenReview, the serviceaccounts/token subresource).
import type { Logger } from '@orch/component-base/logs';
import { restKey } from '../registry/rest.js';
import type { Storage } from '../registry/rest.js';
import type { Store } from '../registry/store.js';
import type { Cachers } from '../cache/cachers.js';
import type { AuthenticationConfig } from './authentication-options.js';
import type { Authenticator, TokenAuthenticator } from './authenticator.js';
import { bearerTokenAuthenticator } from './bearer-token.js';
import { BootstrapTokenCache, bootstrapTokenAuthenticator } from './bootstrap-token.js';
import { readCertBundle } from './cert-chain.js';
import { OidcAuthenticator } from './oidc.js';
import { requestHeaderAuthenticator } from './request-header.js';
import { ServiceAccountTokenAuthenticator, ServiceAccountTokenIssuer } from './service-account.js';
import { readSigningKey, readVerifyKeys } from './service-account-keys.js';
import { tokenFileAuthenticator } from './token-file.js';
import { TokenRequestRest } from './token-request.js';
import { TokenReviewRest, tokenReviewVersions } from './token-review.js';
import { SelfSubjectReviewRest, selfSubjectReviewVersions } from './self-subject-review.js';
import { TokenWebhookAuthenticator } from './token-webhook.js';
import { unionTokenAuthenticator } from './union.js';
import { x509Authenticator } from './x509.js';

export interface Authentication {
  authenticators: Authenticator[];
  tokens: TokenAuthenticator;
  apiAudiences: string[];
  /** The REST objects of authentication, keyed `<group>/<version>/<resource>[/<subresource>]`. */
  rest: Map<string, Storage>;
  /** Extra CA certificates (PEM) the listener must ask clients for (the request-header CA). */
  extraClientCas: string[];
  start(): void;
  stop(): void;
}

export function buildAuthentication(
  c: AuthenticationConfig,
  stores: Map<string, Store>,
  cachers: Cachers,
  log: Logger
): Authentication {
  const serviceAccounts = stores.get('/v1/serviceaccounts');
  const secrets = stores.get('/v1/secrets');
  const pods = stores.get('/v1/pods');
  const apiAudiences = [c.serviceAccounts.issuer];
  const tokenAuthenticators: TokenAuthenticator[] = [];
  const starters: (() => void)[] = [];
  const stoppers: (() => void)[] = [];
  const rest = new Map<string, Storage>();

  if (c.tokenAuthFile) tokenAuthenticators.push(tokenFileAuthenticator(c.tokenAuthFile));
  if (c.bootstrapTokens) {
    if (!secrets) throw new Error('secrets are not registered');
    const cache = new BootstrapTokenCache(secrets, cachers, log);
    starters.push(() => void cache.start());
    stoppers.push(() => cache.stop());
    tokenAuthenticators.push(bootstrapTokenAuthenticator(cache));
  }
  if (c.serviceAccounts.keyFiles.length > 0) {
    if (!serviceAccounts) throw new Error('serviceaccounts are not registered');
    const lookup = c.serviceAccounts.lookup ? { serviceAccounts, pods, secrets } : undefined;
    tokenAuthenticators.push(
      new ServiceAccountTokenAuthenticator(
        readVerifyKeys(c.serviceAccounts.keyFiles),
        c.serviceAccounts.issuer,
        apiAudiences,
        lookup
      )
    );
  }
  if (c.serviceAccounts.signingKeyFile && serviceAccounts) {
    const issuer = new ServiceAccountTokenIssuer(
      readSigningKey(c.serviceAccounts.signingKeyFile),
      c.serviceAccounts.issuer
    );
    const maxExpirationSeconds = c.serviceAccounts.maxExpirationSeconds;
    const deps = { issuer, apiAudiences, maxExpirationSeconds, serviceAccounts, pods, secrets };
    const serviceAccountsV1 = { group: '', version: 'v1', resource: 'serviceaccounts' };
    rest.set(restKey(serviceAccountsV1, 'token'), new TokenRequestRest(deps));
  }
  if (c.oidc) {
    const oidc = new OidcAuthenticator(c.oidc, log);
    starters.push(() => void oidc.start());
    stoppers.push(() => oidc.stop());
    tokenAuthenticators.push(oidc);
  }
  if (c.webhook)
    tokenAuthenticators.push(
      new TokenWebhookAuthenticator(
        c.webhook.configFile,
        c.webhook.version,
        c.webhook.cacheTtlMs,
        apiAudiences
      )
    );
  const tokens = unionTokenAuthenticator(tokenAuthenticators);
  for (const v of tokenReviewVersions) {
    const review = new TokenReviewRest(v, tokens, apiAudiences);
    rest.set(restKey(review.objectKind), review);
  }
  for (const v of selfSubjectReviewVersions) {
    const self = new SelfSubjectReviewRest(v);
    rest.set(restKey(self.objectKind), self);
  }

  const authenticators: Authenticator[] = [];
  const extraClientCas: string[] = [];
  if (c.requestHeader) {
    const roots = readCertBundle(c.requestHeader.clientCaFile);
    authenticators.push(requestHeaderAuthenticator(c.requestHeader, roots));
    extraClientCas.push(...roots.map((r) => r.toString()));
  }
  if (c.clientCaFile) authenticators.push(x509Authenticator(readCertBundle(c.clientCaFile)));
  if (tokenAuthenticators.length > 0)
    authenticators.push(bearerTokenAuthenticator(tokens, apiAudiences));
  return {
    authenticators,
    tokens,
    apiAudiences,
    rest,
    extraClientCas,
    start: () => starters.forEach((s) => s()),
    stop: () => stoppers.forEach((s) => s()),
  };
}
