// The token webhook (--authentication-token-webhook-*): POSTs a TokenReview to a remote service
// and caches its decisions for the TTL (denials for at most 10 s, errors not at all).
import { createHash } from 'node:crypto';
import { newUnauthorized } from '@orch/apimachinery/errors';
import type { TokenAuthenticator, TokenResponse } from './authenticator.js';
import { kubeconfigClient } from './kubeconfig-client.js';

const denialTtlMs = 10_000;
const timeoutMs = 10_000;

/** A TokenReview answer as cached, until `expires`. */
interface CachedReview {
  expires: number;
  authenticated: boolean;
  error: string;
  user?: TokenResponse['user'];
  audiences?: string[] | undefined;
}

export class TokenWebhookAuthenticator implements TokenAuthenticator {
  readonly #client;
  readonly #cache = new Map<string, CachedReview>();
  /** How many TokenReviews were sent (cache misses). */
  calls = 0;

  constructor(
    configFile: string,
    private readonly version: 'v1' | 'v1beta1',
    private readonly ttlMs: number,
    private readonly apiAudiences: string[]
  ) {
    this.#client = kubeconfigClient(configFile);
  }

  async authenticateToken(token: string, audiences: string[]): Promise<TokenResponse | undefined> {
    const key = createHash('sha256')
      .update(token)
      .update('\0')
      .update(audiences.join('\0'))
      .digest('base64');
    const now = Date.now();
    let d = this.#cache.get(key);
    if (!d || d.expires <= now) {
      d = await this.#review(token, audiences);
      this.#cache.set(key, d);
      if (this.#cache.size > 10_000)
        for (const [k, v] of this.#cache) if (v.expires <= now) this.#cache.delete(k);
    }
    if (!d.authenticated || !d.user) {
      if (d.error) throw newUnauthorized(d.error);
      return undefined;
    }
    // status.audiences omitted: the token is valid for the API server itself
    const valid = d.audiences ?? this.apiAudiences;
    const granted = audiences.filter((a) => valid.includes(a));
    if (audiences.length > 0 && granted.length === 0)
      throw newUnauthorized('token audiences are not valid for the target audiences');
    return { user: d.user, audiences: granted };
  }

  async #review(token: string, audiences: string[]): Promise<CachedReview> {
    this.calls++;
    const r = await this.#client.post(
      {
        apiVersion: `authentication.orch.io/${this.version}`,
        kind: 'TokenReview',
        spec: { token, ...(audiences.length > 0 ? { audiences } : {}) },
      },
      timeoutMs
    );
    if (r.status < 200 || r.status >= 300)
      throw new Error(`token webhook answered HTTP ${r.status}`);
    const st =
      (
        r.body as {
          status?: {
            authenticated?: boolean;
            user?: {
              username?: string;
              uid?: string;
              groups?: string[];
              extra?: Record<string, string[]>;
            };
            audiences?: string[];
            error?: string;
          };
        }
      ).status ?? {};
    const now = Date.now();
    if (st.authenticated !== true || !st.user?.username) {
      return {
        expires: now + Math.min(this.ttlMs, denialTtlMs),
        authenticated: false,
        error: st.error ?? '',
      };
    }
    return {
      expires: now + this.ttlMs,
      authenticated: true,
      error: '',
      user: {
        name: st.user.username,
        uid: st.user.uid ?? '',
        groups: [...(st.user.groups ?? [])],
        extra: { ...(st.user.extra ?? {}) },
      },
      audiences: Array.isArray(st.audiences) ? st.audiences : undefined,
    };
  }
}
