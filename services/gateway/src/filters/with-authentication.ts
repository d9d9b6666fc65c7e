import type { RequestHandler } from 'express';
import { newUnauthorized } from '@orch/apimachinery/errors';
import { writeErrorNegotiated } from '../negotiation/response-writers.js';
import { withUser } from '../request/context.js';
import type { Authenticator } from '../authn/authenticator.js';

/**
 * The first authenticator that knows the request decides; none is 401. Health, version and
 * discovery stay reachable without credentials, as load balancers and probes need them.
 */
export const withAuthentication =
  (authenticators: Authenticator[], publicPaths: (path: string) => boolean): RequestHandler =>
  async (req, res, next) => {
    try {
      for (const a of authenticators) {
        const user = await a.authenticate(req);
        if (user) {
          withUser(req, user);
          return next();
        }
      }
      if (publicPaths(req.path)) return next();
      writeErrorNegotiated(req, res, newUnauthorized('Unauthorized'));
    } catch (err) {
      writeErrorNegotiated(req, res, err);
    }
  };
