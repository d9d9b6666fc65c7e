// The request pipeline, in request order (k8s DefaultBuildHandlerChain). Each stage is one
// module; admission is inserted where marked when it exists.
import express from 'express';
import type { Express, RequestHandler } from 'express';
import { newPathNotFound } from '@orch/apimachinery/errors';
import type { Logger } from '@orch/component-base/logs';
import { writeErrorNegotiated } from './negotiation/response-writers.js';
import { withAuditInit } from './filters/with-audit-init.js';
import { withAudit } from './filters/with-audit.js';
import type { AuditSink } from './filters/with-audit.js';
import { withAuthentication } from './filters/with-authentication.js';
import { withAuthorization } from './filters/with-authorization.js';
import { withImpersonation } from './filters/with-impersonation.js';
import { withMaxInFlight } from './filters/with-max-in-flight.js';
import { withPanicRecovery } from './filters/with-panic-recovery.js';
import { withRequestInfoFilter } from './filters/with-request-info.js';
import type { Authenticator } from './authn/authenticator.js';
import type { Authorizer } from './authz/authorizer.js';

export interface HandlerChainConfig {
  log: Logger;
  authenticators: Authenticator[];
  authorizer: Authorizer;
  /** --anonymous-auth. */
  anonymousAuth: boolean;
  /** Paths anonymous users reach without asking the authorizer (only in authorization mode AlwaysAllow, where it would allow everything). */
  publicPath: (path: string) => boolean;
  /** --audit-log-path. */
  audit?: AuditSink;
  maxBodyBytes: number;
  maxReadOnlyInFlight: number;
  maxMutatingInFlight: number;
  metrics: RequestHandler;
  /** Non-resource endpoints: health, version, discovery, OpenAPI, metrics. */
  installNonResource: (app: Express) => void;
  /** The resource handlers (routing by request info). */
  resources: RequestHandler;
}

export function buildHandlerChain(c: HandlerChainConfig): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // listener, TLS: server.ts
  app.use(withAuditInit());
  app.use(c.metrics);
  app.use(withRequestInfoFilter());
  if (c.audit) app.use(withAudit(c.audit));
  app.use(
    withAuthentication(c.authenticators, {
      anonymous: c.anonymousAuth,
      anonymousAllowed: c.publicPath,
    })
  );
  app.use(withImpersonation(c.authorizer));
  app.use(withMaxInFlight(c.maxReadOnlyInFlight, c.maxMutatingInFlight));
  app.use(withAuthorization(c.authorizer));
  app.use(express.raw({ type: () => true, limit: c.maxBodyBytes }));
  c.installNonResource(app);
  app.use(c.resources);
  app.use((req, res) => writeErrorNegotiated(req, res, newPathNotFound()));
  app.use(withPanicRecovery(c.log));
  return app;
}
