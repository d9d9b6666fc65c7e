// Authentication and authorization delegated to the API, as upstream's components do
// (k8s apiserver/pkg/server/options/authentication.go and authorization.go,
// DelegatingAuthenticationOptions, DelegatingAuthorizationOptions): a client certificate of the
// client CA, or a bearer token checked with a TokenReview; then always-allowed paths, the
// system:masters group, or a SubjectAccessReview with nonResourceAttributes. Results are cached
// for upstream's TTLs (10 s for tokens, 10 s allowed and 10 s denied for reviews).
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { RestClient, loadKubeconfig } from '@orch/apimachinery/client';

export interface UserInfo {
  username: string;
  groups: string[];
  uid?: string;
}

export type AuthDecision =
  | { allowed: true; user: UserInfo | undefined }
  | { allowed: false; code: 401 | 403; reason: string };

/** The group every authorizer allows (upstream's --authorization-always-allow-groups default). */
export const alwaysAllowGroups: readonly string[] = ['system:masters'];

// The review kinds' groups (upstream's authentication.k8s.io and authorization.k8s.io).
const authenticationGroup = 'authentication.orch.io';
const authorizationGroup = 'authorization.orch.io';

const authnTtlMs = 10_000;
const authzAllowTtlMs = 10_000;
const authzDenyTtlMs = 10_000;

class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; until: number }>();
  get(key: string): V | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    if (e.until > Date.now()) return e.value;
    this.#entries.delete(key);
    return undefined;
  }
  set(key: string, value: V, ttlMs: number): void {
    if (this.#entries.size > 4096) this.#entries.clear();
    this.#entries.set(key, { value, until: Date.now() + ttlMs });
  }
}

/** Subject CN as the user, each O as a group (upstream's x509 CommonNameUserConversion). */
function certificateUser(req: IncomingMessage): UserInfo | undefined {
  const socket = req.socket as TLSSocket;
  if (!socket.authorized) return undefined;
  const subject = socket.getPeerCertificate().subject as
    Record<string, string | string[]> | undefined;
  const cn = subject?.['CN'];
  if (!cn || Array.isArray(cn)) return undefined;
  const o = subject['O'];
  return { username: cn, groups: o === undefined ? [] : Array.isArray(o) ? o : [o] };
}

function bearerToken(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

/** The HTTP method as a non-resource verb (upstream's RequestInfo: lower case, HEAD as get). */
export function nonResourceVerb(method: string | undefined): string {
  const m = (method ?? 'GET').toLowerCase();
  return m === 'head' ? 'get' : m;
}

/** Whether `path` is one of the always-allowed paths (a trailing `*` matches a prefix). */
export function pathAlwaysAllowed(path: string, allowed: readonly string[]): boolean {
  return allowed.some((p) => (p.endsWith('*') ? path.startsWith(p.slice(0, -1)) : path === p));
}

export interface DelegatingAuthOptions {
  authenticationKubeconfig: string;
  authorizationKubeconfig: string;
  alwaysAllowPaths: readonly string[];
}

export class DelegatingAuth {
  readonly #tokenReviews: RestClient | undefined;
  readonly #accessReviews: RestClient | undefined;
  readonly #alwaysAllowPaths: readonly string[];
  readonly #tokens = new TtlCache<UserInfo | null>();
  readonly #decisions = new TtlCache<boolean>();

  constructor(o: DelegatingAuthOptions) {
    this.#tokenReviews = o.authenticationKubeconfig
      ? new RestClient(loadKubeconfig(o.authenticationKubeconfig))
      : undefined;
    this.#accessReviews = o.authorizationKubeconfig
      ? new RestClient(loadKubeconfig(o.authorizationKubeconfig))
      : undefined;
    this.#alwaysAllowPaths = o.alwaysAllowPaths;
  }

  async decide(req: IncomingMessage, path: string): Promise<AuthDecision> {
    const user = certificateUser(req) ?? (await this.#tokenUser(req));
    if (pathAlwaysAllowed(path, this.#alwaysAllowPaths)) return { allowed: true, user };
    if (!user) return { allowed: false, code: 401, reason: 'Unauthorized' };
    if (user.groups.some((g) => alwaysAllowGroups.includes(g))) return { allowed: true, user };
    const verb = nonResourceVerb(req.method);
    if (await this.#review(user, verb, path)) return { allowed: true, user };
    return {
      allowed: false,
      code: 403,
      reason: `forbidden: User "${user.username}" cannot ${verb} path "${path}"`,
    };
  }

  async #tokenUser(req: IncomingMessage): Promise<UserInfo | undefined> {
    const token = bearerToken(req);
    if (!token || !this.#tokenReviews) return undefined;
    const cached = this.#tokens.get(token);
    if (cached !== undefined) return cached ?? undefined;
    const review = await this.#tokenReviews.request(
      'POST',
      `/apis/${authenticationGroup}/v1/tokenreviews`,
      { apiVersion: `${authenticationGroup}/v1`, kind: 'TokenReview', spec: { token } }
    );
    const status = review['status'] as
      | { authenticated?: boolean; user?: { username?: string; groups?: string[]; uid?: string } }
      | undefined;
    const user =
      status?.authenticated && status.user?.username
        ? {
            username: status.user.username,
            groups: status.user.groups ?? [],
            ...(status.user.uid ? { uid: status.user.uid } : {}),
          }
        : null;
    this.#tokens.set(token, user, authnTtlMs);
    return user ?? undefined;
  }

  async #review(user: UserInfo, verb: string, path: string): Promise<boolean> {
    if (!this.#accessReviews) return false;
    const key = JSON.stringify([user.username, user.uid ?? '', user.groups, verb, path]);
    const cached = this.#decisions.get(key);
    if (cached !== undefined) return cached;
    const review = await this.#accessReviews.request(
      'POST',
      `/apis/${authorizationGroup}/v1/subjectaccessreviews`,
      {
        apiVersion: `${authorizationGroup}/v1`,
        kind: 'SubjectAccessReview',
        spec: {
          user: user.username,
          groups: user.groups,
          ...(user.uid ? { uid: user.uid } : {}),
          nonResourceAttributes: { path, verb },
        },
      }
    );
    const allowed = (review['status'] as { allowed?: boolean } | undefined)?.allowed === true;
    this.#decisions.set(key, allowed, allowed ? authzAllowTtlMs : authzDenyTtlMs);
    return allowed;
  }
}
