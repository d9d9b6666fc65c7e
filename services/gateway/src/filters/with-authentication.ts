import { anonymousUserInfo } from '@orch/apimachinery/auth';
import { newUnauthorized } from '@orch/apimachinery/errors';
import type { Handler } from '../http/handler.js';
import { writeErrorNegotiated } from '../negotiation/response-writers.js';
import { withUser } from '../request/context.js';
import { requestUrl } from '../http/request-url.js';
import type { Authenticator } from '../authn/authenticator.js';
import { unionAuthenticator } from '../authn/union.js';

export interface AuthenticationOptions {
  /** --anonymous-auth: a request without credentials is `system:anonymous`; off, it is 401. */
  anonymous: boolean;
  /**
   * Paths an anonymous user may reach. While the authorization mode is AlwaysAllow nothing else
   * stops an anonymous user, so only health and version paths are let through; an authorizer
   * that decides for `system:anonymous` makes this `() => true`.
   */
  anonymousAllowed: (path: string) => boolean;
}

/**
 * The authenticators in order, the first that succeeds deciding (every user also gets
 * `system:authenticated`). A presented but invalid credential (a bearer token nobody accepts) is
 * 401; no credentials is anonymous when enabled.
 */
export const withAuthentication = (
  next: Handler,
  authenticators: Authenticator[],
  opts: AuthenticationOptions
): Handler => {
  const union = unionAuthenticator(authenticators);
  return async (req, res) => {
    let user;
    try {
      user = await union.authenticate(req);
    } catch (err) {
      return writeErrorNegotiated(req, res, err);
    }
    if (user) {
      withUser(req, user);
      return next(req, res);
    }
    if (opts.anonymous) {
      withUser(req, anonymousUserInfo());
      if (opts.anonymousAllowed(requestUrl(req).pathname)) return next(req, res);
    }
    writeErrorNegotiated(req, res, newUnauthorized('Unauthorized'));
  };
};
