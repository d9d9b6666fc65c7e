// Unions of authenticators (k8s request/union and token/union): the first that succeeds decides;
// when none does, the first error (a presented but invalid credential) wins over "not mine".
import type { HttpRequest } from '../http/handler.js';
import type { UserInfo } from '@orch/apimachinery/auth';
import type { Authenticator, TokenAuthenticator, TokenResponse } from './authenticator.js';
import { allAuthenticated } from '@orch/apimachinery/auth';

/** The user plus `system:authenticated`, once. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  return user.groups.includes(allAuthenticated)
    ? user
    : { ...user, groups: [...user.groups, allAuthenticated] };
}

export function unionAuthenticator(authenticators: Authenticator[]): Authenticator {
  return {
    async authenticate(req: HttpRequest): Promise<UserInfo | undefined> {
      let firstError: unknown;
      for (const a of authenticators) {
        try {
          const user = await a.authenticate(req);
          if (user) return withAuthenticatedGroup(user);
        } catch (err) {
          firstError ??= err;
        }
      }
      if (firstError !== undefined) throw firstError;
      return undefined;
    },
  };
}

export function unionTokenAuthenticator(authenticators: TokenAuthenticator[]): TokenAuthenticator {
  return {
    async authenticateToken(
      token: string,
      audiences: string[]
    ): Promise<TokenResponse | undefined> {
      let firstError: unknown;
      for (const a of authenticators) {
        try {
          const r = await a.authenticateToken(token, audiences);
          if (r) return { ...r, user: withAuthenticatedGroup(r.user) };
        } catch (err) {
          firstError ??= err;
        }
      }
      if (firstError !== undefined) throw firstError;
      return undefined;
    },
  };
}
