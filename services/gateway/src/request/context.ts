// Request-scoped data, set by the filters and read through accessor pairs, never as ad-hoc
// fields on the request (k8s apiserver/pkg/endpoints/request/context.go).
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '@orch/apimachinery/auth';
import type { RequestInfo } from './request-info.js';
import { WarningRecorder } from './warning-recorder.js';

interface RequestContext {
  info?: RequestInfo;
  user?: UserInfo;
  auditId?: string;
  warnings?: WarningRecorder;
  startedAt?: number;
}

const contexts = new WeakMap<IncomingMessage, RequestContext>();

function ctx(req: IncomingMessage): RequestContext {
  let c = contexts.get(req);
  if (!c) {
    c = {};
    contexts.set(req, c);
  }
  return c;
}

export const withRequestInfo = (req: IncomingMessage, info: RequestInfo): void =>
  void (ctx(req).info = info);
export const requestInfoFrom = (req: IncomingMessage): RequestInfo | undefined =>
  contexts.get(req)?.info;
export const withUser = (req: IncomingMessage, user: UserInfo): void => void (ctx(req).user = user);
export const userFrom = (req: IncomingMessage): UserInfo | undefined => contexts.get(req)?.user;
export const withAuditId = (req: IncomingMessage, id: string): void => void (ctx(req).auditId = id);
export const auditIdFrom = (req: IncomingMessage): string | undefined => contexts.get(req)?.auditId;
export const withStartTime = (req: IncomingMessage, at: number): void =>
  void (ctx(req).startedAt = at);
export const startTimeFrom = (req: IncomingMessage): number | undefined =>
  contexts.get(req)?.startedAt;

/**
 * Adds a warning, sent as a `Warning: 299 - "<text>"` response header; every warning of the
 * request goes through its one WarningRecorder (deduplicated, within the size limits).
 */
export function addWarning(req: IncomingMessage, text: string): void {
  (ctx(req).warnings ??= new WarningRecorder()).add(text);
}
export const warningsFrom = (req: IncomingMessage): readonly string[] =>
  contexts.get(req)?.warnings?.warnings ?? [];
