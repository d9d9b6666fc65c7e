// Builds the gateway's authenticators from its flags (k8s BuiltInAuthenticationOptions.ToAuthenticationConfig):
// request-level ones in order (authenticating proxy, client certificates, bearer tokens), the token
// union behind the bearer header and TokenReview, and the service-account token issuer of the
// serviceaccounts/token subresource. The REST objects that serve them are the registry's
// (registry/authentication).
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { Logger } from '@orch/component-base/logs';
import type { Cachers } from '../cache/cachers.js';
import type { AuthenticationConfig } from './authentication-options.js';
import type { Authenticator, TokenAuthenticator } from './authenticator.js';
import { bearerTokenAuthenticator } from './bearer-token.js';
import { BootstrapTokenCache, bootstrapTokenAuthenticator } from './bootstrap-token.js';
import { readCertBundle } from './cert-chain.js';
import { OidcAuthenticator } from './oidc.js';
import { requestHeaderAuthenticator } from './request-header.js';
import { ServiceAccountTokenAuthenticator, ServiceAccountTokenIssuer } from './service-account.js';
import type { ObjectGetter } from './service-account.js';
import { readSigningKey, readVerifyKeys } from './service-account-keys.js';
import { tokenFileAuthenticator } from './token-file.js';
import { TokenWebhookAuthenticator } from './token-webhook.js';
import { unionTokenAuthenticator } from './union.js';
import { x509Authenticator } from './x509.js';

export interface Authentication {
  authenticators: Authenticator[];
  tokens: TokenAuthenticator;
  apiAudiences: string[];
  /** Where service-account tokens are minted (--service-account-signing-key-file), if anywhere. */
  tokenIssuer: TokenIssuer | undefined;
  /** Extra CA certificates (PEM) the listener must ask clients for (the request-header CA). */
  extraClientCas: string[];
  start(): void;
  stop(): void;
}

/** What TokenRequest mints with. */
export interface TokenIssuer {
  issuer: ServiceAccountTokenIssuer;
  maxExpirationSeconds: number;
}

/** A stored kind as authentication reads it: its definition (for its cache) and reads by name. */
export interface StoredKind extends ObjectGetter {
  readonly def: ResourceDefinition;
}

export function buildAuthentication(
  c: AuthenticationConfig,
  stores: ReadonlyMap<string, StoredKind>,
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

  if (c.tokenAuthFile) tokenAuthenticators.push(tokenFileAuthenticator(c.tokenAuthFile));
  if (c.bootstrapTokens) {
    if (!secrets) throw new Error('secrets are not registered');
    const cache = new BootstrapTokenCache(secrets.def, cachers, log);
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
  let tokenIssuer: TokenIssuer | undefined;
  if (c.serviceAccounts.signingKeyFile && serviceAccounts) {
    const issuer = new ServiceAccountTokenIssuer(
      readSigningKey(c.serviceAccounts.signingKeyFile),
      c.serviceAccounts.issuer
    );
    tokenIssuer = { issuer, maxExpirationSeconds: c.serviceAccounts.maxExpirationSeconds };
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
    tokenIssuer,
    extraClientCas,
    start: () => starters.forEach((s) => s()),
    stop: () => stoppers.forEach((s) => s()),
  };
}
