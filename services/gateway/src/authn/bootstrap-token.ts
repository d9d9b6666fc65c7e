// Bootstrap tokens (--enable-bootstrap-token-auth): `<id>.<secret>` checked against the secret
// `bootstrap-token-<id>` of type bootstrap.orch.io/token in orch-system. The secrets are kept in
// the gateway's secrets watch cache (read as an Informer, started with the gateway), not read
// per request.
import { timingSafeEqual } from 'node:crypto';
import type { Logger } from '@orch/component-base/logs';
import { newUnauthorized } from '@orch/apimachinery/errors';
import type { UserInfo } from '@orch/apimachinery/auth';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { Informer } from '@orch/apimachinery/informer';
import type { Cachers } from '../cache/cachers.js';
import type { TokenAuthenticator } from './authenticator.js';
import { audienceAgnostic } from './authenticator.js';

export const bootstrapTokenSecretType = 'bootstrap.orch.io/token';
export const bootstrapTokenNamespace = 'orch-system';
export const bootstrapTokenSecretPrefix = 'bootstrap-token-';
export const bootstrappersGroup = 'system:bootstrappers';
const tokenShape = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;

/** A field of a secret: `data` (base64) or, as written, `stringData`. */
export function secretField(secret: ApiObject, key: string): string | undefined {
  const data = secret['data'] as Record<string, string> | undefined;
  if (data && typeof data[key] === 'string')
    return Buffer.from(data[key], 'base64').toString('utf8');
  const stringData = secret['stringData'] as Record<string, string> | undefined;
  if (stringData && typeof stringData[key] === 'string') return stringData[key];
  return undefined;
}

const safeEqual = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The identity a bootstrap token gives, or throws why it gives none. */
export function bootstrapTokenUser(
  token: string,
  secret: ApiObject | undefined,
  now = Date.now()
): UserInfo {
  const m = tokenShape.exec(token);
  if (!m) throw newUnauthorized('not a bootstrap token');
  const [, id = '', value = ''] = m;
  if (!secret || secret['type'] !== bootstrapTokenSecretType)
    throw newUnauthorized(`bootstrap token ${id}: no such token`);
  if (secret.metadata.deletionTimestamp)
    throw newUnauthorized(`bootstrap token ${id}: being deleted`);
  const tokenId = secretField(secret, 'token-id');
  const tokenSecret = secretField(secret, 'token-secret');
  if (tokenId !== id || tokenSecret === undefined || !safeEqual(tokenSecret, value))
    throw newUnauthorized(`bootstrap token ${id}: wrong token`);
  const expiration = secretField(secret, 'expiration');
  if (expiration !== undefined) {
    const at = Date.parse(expiration);
    if (Number.isNaN(at) || at <= now) throw newUnauthorized(`bootstrap token ${id}: expired`);
  }
  if (secretField(secret, 'usage-bootstrap-authentication') !== 'true')
    throw newUnauthorized(`bootstrap token ${id}: not usable for authentication`);
  const extra = (secretField(secret, 'auth-extra-groups') ?? '')
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);
  const bad = extra.find((g) => !g.startsWith(`${bootstrappersGroup}:`));
  if (bad)
    throw newUnauthorized(
      `bootstrap token ${id}: auth-extra-groups entry ${bad} does not start with ${bootstrappersGroup}:`
    );
  return {
    name: `system:bootstrap:${id}`,
    uid: '',
    groups: [bootstrappersGroup, ...extra],
    extra: {},
  };
}

/** The bootstrap-token secrets of orch-system, from the secrets watch cache. */
export class BootstrapTokenCache {
  readonly #informer: Informer;
  readonly #start: () => void;

  constructor(secrets: ResourceDefinition, cachers: Cachers, _log?: Logger) {
    const cacher = cachers.for(secrets);
    this.#informer = cacher.cache;
    this.#start = () => void cacher.start({ required: true });
  }

  get synced(): boolean {
    return this.#informer.synced;
  }

  /** A bootstrap-token secret of orch-system by name. */
  get(name: string): ApiObject | undefined {
    if (!name.startsWith(bootstrapTokenSecretPrefix)) return undefined;
    return this.#informer.get(`${bootstrapTokenNamespace}/${name}`) as ApiObject | undefined;
  }

  /** Starts the cache; resolves once it is synced. */
  async start(): Promise<void> {
    this.#start();
    await this.#informer.waitForSync();
  }

  /** The cache stops with the gateway's caches. */
  stop(): void {}
}

export function bootstrapTokenAuthenticator(cache: BootstrapTokenCache): TokenAuthenticator {
  return audienceAgnostic((token) => {
    const m = tokenShape.exec(token);
    if (!m) return undefined; // not a bootstrap token
    return bootstrapTokenUser(token, cache.get(`${bootstrapTokenSecretPrefix}${m[1] ?? ''}`));
  });
}
