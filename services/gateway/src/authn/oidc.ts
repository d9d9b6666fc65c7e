// OpenID Connect (--oidc-*): the id_token is the bearer token. The provider is found by discovery
// (openid-client); its keys come from the jwks_uri (jose's remote key set: cached, fetched again
// for an unknown kid). Checked: signature and algorithm, issuer, audience (the client id), expiry,
// required claims; the user name and groups come from the configured claims and prefixes.
import { readFileSync } from 'node:fs';
import { createRemoteJWKSet, customFetch as joseFetch, decodeJwt, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';
import * as client from 'openid-client';
import type { Logger } from '@orch/component-base/logs';
import { newUnauthorized } from '@orch/apimachinery/errors';
import type { UserInfo } from '@orch/apimachinery/auth';
import type { OidcConfig } from './authentication-options.js';
import type { TokenAuthenticator, TokenResponse } from './authenticator.js';
import { httpsFetch } from './https-fetch.js';

/** The user a verified set of claims names (k8s oidc claim mapping). */
export function oidcUser(c: OidcConfig, claims: JWTPayload): UserInfo {
  for (const [k, v] of Object.entries(c.requiredClaims)) {
    if (claims[k] !== v)
      throw newUnauthorized(`oidc: required claim ${k} is not ${JSON.stringify(v)}`);
  }
  const raw = claims[c.usernameClaim];
  if (typeof raw !== 'string' || raw === '')
    throw newUnauthorized(`oidc: claim ${c.usernameClaim} is missing or not a string`);
  if (
    c.usernameClaim === 'email' &&
    claims['email_verified'] !== undefined &&
    claims['email_verified'] !== true
  ) {
    throw newUnauthorized('oidc: email not verified');
  }
  const prefix =
    c.usernamePrefix === '-'
      ? ''
      : (c.usernamePrefix ?? (c.usernameClaim === 'email' ? '' : `${c.issuerUrl}#`));
  let groups: string[] = [];
  if (c.groupsClaim && claims[c.groupsClaim] !== undefined) {
    const g = claims[c.groupsClaim];
    if (typeof g === 'string') groups = [g];
    else if (Array.isArray(g) && g.every((x) => typeof x === 'string')) groups = g as string[];
    else throw newUnauthorized(`oidc: claim ${c.groupsClaim} is not an array of strings`);
  }
  return {
    name: `${prefix}${raw}`,
    uid: '',
    groups: groups.map((x) => `${c.groupsPrefix}${x}`),
    extra: {},
  };
}

export class OidcAuthenticator implements TokenAuthenticator {
  #keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  #stopped = false;
  readonly #fetch;

  constructor(
    private readonly c: OidcConfig,
    private readonly log: Logger
  ) {
    this.#fetch = httpsFetch(c.caFile ? readFileSync(c.caFile) : undefined);
  }

  get ready(): boolean {
    return this.#keys !== undefined;
  }

  /** Discovery, retried until it works (the provider may start after the gateway). */
  async start(): Promise<void> {
    for (let attempt = 0; !this.#stopped; attempt++) {
      try {
        const config = await client.discovery(
          new URL(this.c.issuerUrl),
          this.c.clientId,
          undefined,
          undefined,
          { [client.customFetch]: this.#fetch }
        );
        const meta = config.serverMetadata();
        if (!meta.jwks_uri) throw new Error('the provider publishes no jwks_uri');
        this.#keys = createRemoteJWKSet(new URL(meta.jwks_uri), {
          [joseFetch]: this.#fetch,
          cooldownDuration: 5_000,
        });
        this.log.info('oidc provider discovered', { issuer: meta.issuer, jwks: meta.jwks_uri });
        return;
      } catch (err) {
        if (attempt % 10 === 0)
          this.log.warn('oidc discovery failed; retrying', { issuer: this.c.issuerUrl, err });
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  stop(): void {
    this.#stopped = true;
  }

  async authenticateToken(token: string, audiences: string[]): Promise<TokenResponse | undefined> {
    let iss: string | undefined;
    try {
      iss = decodeJwt(token).iss;
    } catch {
      return undefined; // not a JWT
    }
    if (iss !== this.c.issuerUrl) return undefined; // not this provider's
    if (!this.#keys) throw newUnauthorized('oidc: the provider has not been discovered yet');
    let payload: JWTPayload;
    try {
      payload = (
        await jwtVerify(token, this.#keys, {
          issuer: this.c.issuerUrl,
          audience: this.c.clientId,
          algorithms: this.c.signingAlgs,
          requiredClaims: ['exp'],
        })
      ).payload;
    } catch (err) {
      throw newUnauthorized(`oidc: ${(err as Error).message}`);
    }
    return { user: oidcUser(this.c, payload), audiences };
  }
}
