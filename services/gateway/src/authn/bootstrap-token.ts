// Bootstrap tokens (--enable-bootstrap-token-auth): `<id>.<secret>` checked against the secret
// `bootstrap-token-<id>` of type bootstrap.orch.io/token in orch-system. The secrets are kept in
// a cache fed by the gateway's watch fan-out (a list, then every change), not read per request.
import { timingSafeEqual } from 'node:crypto';
import type { Logger } from '@orch/component-base/logs';
import { newUnauthorized } from '@orch/apimachinery/errors';
import type { Status } from '@orch/apimachinery/errors';
import type { UserInfo } from '@orch/apimachinery/auth';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Store } from '../registry/store.js';
import type { Fanout } from '../watch/fanout.js';
import type { Change, FeedListener } from '../watch/type-feed.js';
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

/** The bootstrap-token secrets of orch-system, kept current from the fan-out. */
export class BootstrapTokenCache implements FeedListener {
  readonly #items = new Map<string, ApiObject>();
  #synced = false;
  #stopped = false;
  #unsubscribe: (() => void) | undefined;

  constructor(
    private readonly secrets: Store,
    private readonly fanout: Fanout,
    private readonly log: Logger
  ) {}

  get synced(): boolean {
    return this.#synced;
  }

  get(name: string): ApiObject | undefined {
    return this.#items.get(name);
  }

  async start(): Promise<void> {
    while (!this.#stopped) {
      try {
        const ctx = { namespace: bootstrapTokenNamespace };
        const list = await this.secrets.list(ctx, { consistency: 'MOST_RECENT' });
        this.#items.clear();
        for (const o of list.items)
          this.change({ type: 'ADDED', revision: list.revision, object: o });
        this.#unsubscribe = await this.fanout
          .feedFor(this.secrets.def)
          .subscribe(this, list.revision);
        this.#synced = true;
        return;
      } catch (err) {
        this.log.warn('bootstrap token cache could not sync; retrying', { err });
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  change(c: Change): void {
    const meta = c.object['metadata'] as { name?: string; namespace?: string } | undefined;
    const name = meta?.name ?? '';
    if (meta?.namespace !== bootstrapTokenNamespace || !name.startsWith(bootstrapTokenSecretPrefix))
      return;
    if (c.type === 'DELETED') this.#items.delete(name);
    else this.#items.set(name, c.object as ApiObject);
  }

  progress(): void {}

  fail(status: Status): void {
    this.log.warn('bootstrap token watch ended; relisting', { reason: status.reason });
    this.#synced = false;
    this.#unsubscribe = undefined;
    void this.start();
  }

  stop(): void {
    this.#stopped = true;
    this.#unsubscribe?.();
  }
}

export function bootstrapTokenAuthenticator(cache: BootstrapTokenCache): TokenAuthenticator {
  return audienceAgnostic((token) => {
    const m = tokenShape.exec(token);
    if (!m) return undefined; // not a bootstrap token
    return bootstrapTokenUser(token, cache.get(`${bootstrapTokenSecretPrefix}${m[1] ?? ''}`));
  });
}
