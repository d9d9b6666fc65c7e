import type { HttpRequest } from '../http/handler.js';
import type { UserInfo } from '@orch/apimachinery/auth';

/** Answers who made a request, undefined when this method does not apply, or throws (401). */
export interface Authenticator {
  authenticate(req: HttpRequest): Promise<UserInfo | undefined> | UserInfo | undefined;
}

/** Adapts a function to the Authenticator role. */
export class AuthenticatorFunc implements Authenticator {
  constructor(
    private readonly fn: (req: HttpRequest) => Promise<UserInfo | undefined> | UserInfo | undefined
  ) {}
  authenticate(req: HttpRequest): Promise<UserInfo | undefined> | UserInfo | undefined {
    return this.fn(req);
  }
}

/** A token's owner and the audiences (of those asked for) the token is valid for. */
export interface TokenResponse {
  user: UserInfo;
  audiences: string[];
}

/**
 * Answers who a bearer token belongs to (k8s authenticator.Token): undefined when the token is
 * not of this method's kind, throws when it is but is not valid (expired, tampered, revoked).
 * `audiences` are those the token must be valid for: the API server's own when empty.
 */
export interface TokenAuthenticator {
  authenticateToken(token: string, audiences: string[]): Promise<TokenResponse | undefined>;
}

/** Adapts a function to the TokenAuthenticator role. */
export class TokenAuthenticatorFunc implements TokenAuthenticator {
  constructor(
    private readonly fn: (token: string, audiences: string[]) => Promise<TokenResponse | undefined>
  ) {}
  authenticateToken(token: string, audiences: string[]): Promise<TokenResponse | undefined> {
    return this.fn(token, audiences);
  }
}

/** A token authenticator that is valid for any audience asked (static tokens, bootstrap tokens). */
export function audienceAgnostic(
  fn: (token: string) => Promise<UserInfo | undefined> | UserInfo | undefined
): TokenAuthenticator {
  return new TokenAuthenticatorFunc(async (token, audiences) => {
    const user = await fn(token);
    return user ? { user, audiences } : undefined;
  });
}
