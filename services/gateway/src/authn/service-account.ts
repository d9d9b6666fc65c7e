// Service-account tokens (k8s serviceaccount JWTs): minted by the TokenRequest subresource,
// verified against --service-account-key-file keys; with --service-account-lookup the account (and
// the object the token is bound to) must still exist with the same uid.
import { randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { allServiceAccountsGroup, serviceAccountPrefix } from '@orch/apimachinery/auth';
import { isNotFound, newUnauthorized } from '@orch/apimachinery/errors';
import type { UserInfo } from '@orch/apimachinery/auth';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { TokenAuthenticator, TokenResponse } from './authenticator.js';
import type { SigningKey, VerifyKey } from './service-account-keys.js';

/** The private claim holding namespace, account and bound object (k8s `kubernetes.io`). */
export const privateClaim = 'orch.io';

/**
 * The issuer and private claims of legacy tokens, the ones the controllers' token controller
 * writes into kubernetes.io/service-account-token Secrets (k8s serviceaccount LegacyIssuer,
 * legacyPrivateClaims).
 */
export const legacyIssuer = 'kubernetes/serviceaccount';
const legacyClaim = {
  namespace: 'kubernetes.io/serviceaccount/namespace',
  secretName: 'kubernetes.io/serviceaccount/secret.name',
  serviceAccountName: 'kubernetes.io/serviceaccount/service-account.name',
  serviceAccountUid: 'kubernetes.io/serviceaccount/service-account.uid',
} as const;

export interface BoundObject {
  kind: 'Pod' | 'Secret';
  name: string;
  uid: string;
}

export interface PrivateClaims {
  namespace: string;
  serviceaccount: { name: string; uid: string };
  pod?: { name: string; uid: string };
  secret?: { name: string; uid: string };
}

export function serviceAccountUser(
  namespace: string,
  name: string,
  uid: string,
  bound?: BoundObject
): UserInfo {
  const extra: Record<string, string[]> = {};
  if (bound?.kind === 'Pod') {
    extra['authentication.orch.io/pod-name'] = [bound.name];
    extra['authentication.orch.io/pod-uid'] = [bound.uid];
  }
  return {
    name: `${serviceAccountPrefix}${namespace}:${name}`,
    uid,
    groups: [allServiceAccountsGroup, `${allServiceAccountsGroup}:${namespace}`],
    extra,
  };
}

/** Parses `system:serviceaccount:<ns>:<name>`. */
export function splitServiceAccountName(
  user: string
): { namespace: string; name: string } | undefined {
  if (!user.startsWith(serviceAccountPrefix)) return undefined;
  const parts = user.slice(serviceAccountPrefix.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { namespace: parts[0], name: parts[1] };
}

export class ServiceAccountTokenIssuer {
  constructor(
    private readonly key: SigningKey,
    readonly issuer: string
  ) {}

  async mint(p: {
    namespace: string;
    name: string;
    uid: string;
    audiences: string[];
    expirationSeconds: number;
    bound?: BoundObject;
  }): Promise<{ token: string; expiresAt: Date }> {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + p.expirationSeconds;
    const claims: PrivateClaims = {
      namespace: p.namespace,
      serviceaccount: { name: p.name, uid: p.uid },
    };
    if (p.bound?.kind === 'Pod') claims.pod = { name: p.bound.name, uid: p.bound.uid };
    if (p.bound?.kind === 'Secret') claims.secret = { name: p.bound.name, uid: p.bound.uid };
    const token = await new SignJWT({ [privateClaim]: claims })
      .setProtectedHeader({ alg: this.key.alg, kid: this.key.kid })
      .setIssuer(this.issuer)
      .setSubject(`${serviceAccountPrefix}${p.namespace}:${p.name}`)
      .setAudience(p.audiences)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(exp)
      .setJti(randomUUID())
      .sign(this.key.privateKey);
    return { token, expiresAt: new Date(exp * 1000) };
  }
}

/**
 * How the lookup reads a service account, pod or secret: a most recent read by name, as a
 * Store's get answers it (k8s ServiceAccountTokenGetter).
 */
export interface ObjectGetter {
  get(
    ctx: { namespace: string },
    name: string,
    opts: { consistency: 'MOST_RECENT' }
  ): Promise<ApiObject>;
}

export interface ServiceAccountLookup {
  serviceAccounts: ObjectGetter;
  pods: ObjectGetter | undefined;
  secrets: ObjectGetter | undefined;
}

export class ServiceAccountTokenAuthenticator implements TokenAuthenticator {
  constructor(
    private readonly keys: VerifyKey[],
    private readonly issuer: string,
    private readonly apiAudiences: string[],
    private readonly lookup: ServiceAccountLookup | undefined
  ) {}

  async authenticateToken(token: string, audiences: string[]): Promise<TokenResponse | undefined> {
    let iss: string | undefined;
    let kid: string | undefined;
    try {
      iss = decodeJwt(token).iss;
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return undefined; // not a JWT
    }
    if (iss === legacyIssuer) return this.#authenticateLegacy(token, kid, audiences);
    if (iss !== this.issuer) return undefined; // another issuer's token (OIDC, ...)
    const wanted = audiences.length > 0 ? audiences : this.apiAudiences;
    const payload = await this.#verify(token, kid, {
      issuer: this.issuer,
      audience: wanted,
      requiredClaims: ['exp', 'sub'],
    });
    const sub = splitServiceAccountName(String(payload['sub'] ?? ''));
    const pc = payload[privateClaim] as PrivateClaims | undefined;
    if (!sub || !pc || pc.namespace !== sub.namespace || pc.serviceaccount?.name !== sub.name) {
      throw newUnauthorized('invalid service-account token: subject and private claims disagree');
    }
    const bound: BoundObject | undefined = pc.pod
      ? { kind: 'Pod', ...pc.pod }
      : pc.secret
        ? { kind: 'Secret', ...pc.secret }
        : undefined;
    if (this.lookup) await this.#lookup(sub.namespace, pc, bound);
    const aud = payload['aud'];
    const tokenAud = Array.isArray(aud) ? aud.map(String) : [String(aud)];
    return {
      user: serviceAccountUser(sub.namespace, sub.name, pc.serviceaccount.uid, bound),
      audiences: wanted.filter((a) => tokenAud.includes(a)),
    };
  }

  /** The token's payload once a key (the one its kid names, else any) verifies it. */
  async #verify(
    token: string,
    kid: string | undefined,
    opts: { issuer: string; audience?: string[]; requiredClaims: string[] }
  ): Promise<Record<string, unknown>> {
    const candidates = this.keys.filter((k) => !kid || k.kid === kid);
    let lastErr: unknown;
    for (const k of candidates.length > 0 ? candidates : this.keys) {
      try {
        return (await jwtVerify(token, k.key, { ...opts, algorithms: [k.alg] })).payload;
      } catch (err) {
        lastErr = err;
      }
    }
    throw newUnauthorized(
      `invalid service-account token: ${(lastErr as Error | undefined)?.message ?? 'no key'}`
    );
  }

  /**
   * A legacy token (k8s legacyValidator): no expiry and no audience (it is good for the API's
   * audiences); with lookup, its Secret must still exist, not be deleted, and hold this very
   * token, and its ServiceAccount must exist with the uid the token names.
   */
  async #authenticateLegacy(
    token: string,
    kid: string | undefined,
    audiences: string[]
  ): Promise<TokenResponse> {
    const payload = await this.#verify(token, kid, {
      issuer: legacyIssuer,
      requiredClaims: ['sub'],
    });
    const claim = (k: string): string => {
      const v = payload[k];
      return typeof v === 'string' ? v : '';
    };
    const namespace = claim(legacyClaim.namespace);
    const secretName = claim(legacyClaim.secretName);
    const name = claim(legacyClaim.serviceAccountName);
    const uid = claim(legacyClaim.serviceAccountUid);
    const missing = !namespace
      ? 'namespace'
      : !secretName
        ? 'secretName'
        : !name
          ? 'serviceAccountName'
          : !uid
            ? 'serviceAccountUID'
            : '';
    if (missing)
      throw newUnauthorized(`invalid service-account token: ${missing} claim is missing`);
    const sub = splitServiceAccountName(String(payload['sub'] ?? ''));
    if (!sub || sub.namespace !== namespace || sub.name !== name) {
      throw newUnauthorized('invalid service-account token: sub claim is invalid');
    }
    if (this.lookup) await this.#lookupLegacy(token, namespace, secretName, name, uid);
    const wanted = audiences.length > 0 ? audiences : this.apiAudiences;
    const granted = wanted.filter((a) => this.apiAudiences.includes(a));
    if (granted.length === 0) {
      throw newUnauthorized(
        `invalid service-account token: token audiences ${JSON.stringify(this.apiAudiences)} is invalid for the target audiences ${JSON.stringify(audiences)}`
      );
    }
    return { user: serviceAccountUser(namespace, name, uid), audiences: granted };
  }

  async #lookupLegacy(
    token: string,
    namespace: string,
    secretName: string,
    name: string,
    uid: string
  ): Promise<void> {
    const get = async (
      store: ObjectGetter | undefined,
      n: string
    ): Promise<ApiObject | undefined> => {
      try {
        return await store?.get({ namespace }, n, { consistency: 'MOST_RECENT' });
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    };
    const secret = await get(this.lookup?.secrets, secretName);
    if (!secret || secret.metadata.deletionTimestamp) {
      throw newUnauthorized('invalid service-account token: Token has been invalidated');
    }
    const held = (secret['data'] as Record<string, string> | undefined)?.['token'] ?? '';
    if (Buffer.from(held, 'base64').toString('utf8') !== token) {
      throw newUnauthorized("invalid service-account token: Token does not match server's copy");
    }
    const sa = await get(this.lookup?.serviceAccounts, name);
    if (!sa || sa.metadata.deletionTimestamp) {
      throw newUnauthorized(`ServiceAccount ${namespace}/${name} has been deleted`);
    }
    if (sa.metadata.uid !== uid) {
      throw newUnauthorized(
        `ServiceAccount UID (${sa.metadata.uid ?? ''}) does not match claim (${uid})`
      );
    }
  }

  async #lookup(
    namespace: string,
    pc: PrivateClaims,
    bound: BoundObject | undefined
  ): Promise<void> {
    const check = async (
      store: ObjectGetter | undefined,
      what: string,
      name: string,
      uid: string
    ): Promise<void> => {
      if (!store) throw newUnauthorized(`${what} ${namespace}/${name} cannot be looked up`);
      try {
        const obj = await store.get({ namespace }, name, { consistency: 'MOST_RECENT' });
        if (obj.metadata.uid !== uid)
          throw newUnauthorized(`${what} ${namespace}/${name} has been deleted (uid mismatch)`);
        if (obj.metadata.deletionTimestamp)
          throw newUnauthorized(`${what} ${namespace}/${name} is being deleted`);
      } catch (err) {
        if (isNotFound(err)) throw newUnauthorized(`${what} ${namespace}/${name} has been deleted`);
        throw err;
      }
    };
    await check(
      this.lookup?.serviceAccounts,
      'service account',
      pc.serviceaccount.name,
      pc.serviceaccount.uid
    );
    if (bound)
      await check(
        bound.kind === 'Pod' ? this.lookup?.pods : this.lookup?.secrets,
        bound.kind.toLowerCase(),
        bound.name,
        bound.uid
      );
  }
}
