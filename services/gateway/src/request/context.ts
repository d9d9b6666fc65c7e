// Request-scoped data, set by the filters and read through accessor pairs, never as ad-hoc
// fields on the request (k8s apiserver/pkg/endpoints/request/context.go).
import type { UserInfo } from '@orch/apimachinery/auth';
import type { HttpRequest } from '../http/handler.js';
import type { RequestInfo } from './request-info.js';
import { WarningRecorder } from './warning-recorder.js';

interface RequestContext {
  info?: RequestInfo;
  user?: UserInfo;
  auditId?: string;
  warnings?: WarningRecorder;
  startedAt?: number;
  body?: Buffer;
  auditAnnotations?: Record<string, string>;
  upstreamGroupNames?: boolean;
}

const contexts = new WeakMap<HttpRequest, RequestContext>();

function ctx(req: HttpRequest): RequestContext {
  let c = contexts.get(req);
  if (!c) {
    c = {};
    contexts.set(req, c);
  }
  return c;
}

export const withRequestInfo = (req: HttpRequest, info: RequestInfo): void =>
  void (ctx(req).info = info);
export const requestInfoFrom = (req: HttpRequest): RequestInfo | undefined =>
  contexts.get(req)?.info;
export const withUser = (req: HttpRequest, user: UserInfo): void => void (ctx(req).user = user);
export const userFrom = (req: HttpRequest): UserInfo | undefined => contexts.get(req)?.user;
export const withAuditId = (req: HttpRequest, id: string): void => void (ctx(req).auditId = id);
export const auditIdFrom = (req: HttpRequest): string | undefined => contexts.get(req)?.auditId;
export const withStartTime = (req: HttpRequest, at: number): void => void (ctx(req).startedAt = at);
export const startTimeFrom = (req: HttpRequest): number | undefined => contexts.get(req)?.startedAt;
/** The request body, read whole by the chain (filters/with-request-body.ts) before routing. */
export const withBody = (req: HttpRequest, body: Buffer): void => void (ctx(req).body = body);
export const bodyFrom = (req: HttpRequest): Buffer | undefined => contexts.get(req)?.body;

/**
 * Adds a warning, sent as a `Warning: 299 - "<text>"` response header; every warning of the
 * request goes through its one WarningRecorder (deduplicated, within the size limits).
 */
export function addWarning(req: HttpRequest, text: string): void {
  (ctx(req).warnings ??= new WarningRecorder()).add(text);
}
export const warningsFrom = (req: HttpRequest): readonly string[] =>
  contexts.get(req)?.warnings?.warnings ?? [];

/** An annotation of the request's audit event (k8s audit.AddAuditAnnotation); the first value of a key stays. */
export function addAuditAnnotation(req: HttpRequest, key: string, value: string): void {
  const a = (ctx(req).auditAnnotations ??= {});
  if (!(key in a)) a[key] = value;
}
export const auditAnnotationsFrom = (req: HttpRequest): Readonly<Record<string, string>> =>
  contexts.get(req)?.auditAnnotations ?? {};

/**
 * Marks a request made in upstream's group names (a path or body under an alias such as
 * `rbac.authorization.k8s.io`, filters/with-group-alias.ts): its answer is written in them too.
 */
export const withUpstreamGroupNames = (req: HttpRequest): void =>
  void (ctx(req).upstreamGroupNames = true);
export const upstreamGroupNamesFrom = (req: HttpRequest): boolean =>
  contexts.get(req)?.upstreamGroupNames === true;
