// `Authorization: Bearer <token>` (k8s bearertoken): the token goes through the token
// authenticators; a bearer token nobody accepts is 401, never anonymous.
import { newUnauthorized } from '@orch/apimachinery/errors';
import type { Authenticator, TokenAuthenticator } from './authenticator.js';

export function bearerTokenAuthenticator(
  tokens: TokenAuthenticator,
  apiAudiences: string[]
): Authenticator {
  return {
    async authenticate(req) {
      const header = req.headers.authorization;
      if (!header) return undefined;
      const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
      if (!m) return undefined;
      const token = m[1] ?? '';
      let r;
      try {
        r = await tokens.authenticateToken(token, apiAudiences);
      } catch {
        throw newUnauthorized('Unauthorized');
      }
      if (!r) throw newUnauthorized('Unauthorized');
      return r.user;
    },
  };
}

/** Whether a request carries a bearer token (a presented credential). */
export const hasBearerToken = (authorization: string | undefined): boolean =>
  !!authorization && /^\s*bearer\s+\S/i.test(authorization);
