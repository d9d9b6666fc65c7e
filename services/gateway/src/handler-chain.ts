// The request pipeline, in request order (k8s DefaultBuildHandlerChain): each stage is one module
// wrapping the next (`withX(next, deps)`), over the gateway's own handler contract (http/), so the
// one chain serves HTTP/1.1 and HTTP/2 alike. Admission runs inside the resource handlers.
import { newPathNotFound } from '@orch/apimachinery/errors';
import type { Logger } from '@orch/component-base/logs';
import type { Handler } from './http/handler.js';
import { PathMux } from './http/path-mux.js';
import { writeErrorNegotiated } from './negotiation/response-writers.js';
import { withAuditInit } from './filters/with-audit-init.js';
import { withAudit, withAuditPolicy } from './filters/with-audit.js';
import type { AuditConfig } from './filters/with-audit.js';
import { withAuthentication } from './filters/with-authentication.js';
import { withAuthorization } from './filters/with-authorization.js';
import { withAliasedBody, withGroupAlias } from './filters/with-group-alias.js';
import { withImpersonation } from './filters/with-impersonation.js';
import { withMaxInFlight } from './filters/with-max-in-flight.js';
import { withPriorityAndFairness } from './filters/with-priority-and-fairness.js';
import type { PriorityAndFairnessConfig } from './filters/with-priority-and-fairness.js';
import { withPanicRecovery } from './filters/with-panic-recovery.js';
import { withRequestBody } from './filters/with-request-body.js';
import { withRequestInfoFilter } from './filters/with-request-info.js';
import { requestInfoFrom } from './request/context.js';
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
  /** The audit policy and backends (--audit-*). */
  audit?: AuditConfig;
  maxBodyBytes: number;
  /** --upstream-group-aliases: requests under upstream's group names reach the `orch.io` groups. */
  upstreamGroupAliases: boolean;
  maxReadOnlyInFlight: number;
  maxMutatingInFlight: number;
  /** --enable-priority-and-fairness: APF in place of the in-flight limits. */
  priorityAndFairness?: PriorityAndFairnessConfig;
  /** Counts and times every request (metrics.ts). */
  metrics: (next: Handler) => Handler;
  /** Non-resource endpoints: health, version, discovery, OpenAPI, metrics. */
  installNonResource: (mux: PathMux) => void;
  /** The aggregation proxy: group versions served by extension servers (aggregator/). */
  aggregation?: (next: Handler) => Handler;
  /** The resource handlers (routing by request info). */
  resources: Handler;
}

type Filter = (next: Handler) => Handler;

/** The filters around a handler, the first listed the first a request meets. */
function chain(filters: (Filter | false | undefined)[], handler: Handler): Handler {
  return filters.reduceRight<Handler>((next, f) => (f ? f(next) : next), handler);
}

export function buildHandlerChain(c: HandlerChainConfig): Handler {
  const nonResource = new PathMux();
  c.installNonResource(nonResource);
  const notFound: Handler = (req, res) => writeErrorNegotiated(req, res, newPathNotFound());
  const nonResourceOrNotFound = nonResource.handler(notFound);
  // Resource requests to the installer's handler, anything else to the non-resource mux.
  const director: Handler = (req, res) =>
    requestInfoFrom(req)?.isResourceRequest
      ? c.resources(req, res)
      : nonResourceOrNotFound(req, res);

  // listener, TLS: server.ts
  return chain(
    [
      (h) => withPanicRecovery(h, c.log),
      withAuditInit,
      c.metrics,
      withRequestInfoFilter,
      c.upstreamGroupAliases && withGroupAlias,
      c.audit && ((h) => withAudit(h, c.audit!)),
      (h) =>
        withAuthentication(h, c.authenticators, {
          anonymous: c.anonymousAuth,
          anonymousAllowed: c.publicPath,
        }),
      c.audit && ((h) => withAuditPolicy(h, c.audit!)),
      (h) => withImpersonation(h, c.authorizer),
      c.priorityAndFairness
        ? (h) => withPriorityAndFairness(h, c.priorityAndFairness!)
        : (h) => withMaxInFlight(h, c.maxReadOnlyInFlight, c.maxMutatingInFlight),
      (h) => withAuthorization(h, c.authorizer),
      c.aggregation,
      (h) => withRequestBody(h, c.maxBodyBytes),
      c.upstreamGroupAliases && withAliasedBody,
    ],
    director
  );
}
