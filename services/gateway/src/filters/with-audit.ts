// Audit (k8s WithAudit and WithFailedAuthenticationAudit): the policy decides, once the user is
// known, the request's level and omitted stages; events are written at RequestReceived,
// ResponseStarted (watches: the headers sent), ResponseComplete and Panic (a handler's throw, in
// place of ResponseComplete). The request body is recorded from level Request, the response body
// at RequestResponse. withAudit sits before authentication so that a request refused there is
// audited too (its policy evaluated without a user); withAuditPolicy sits after it.
import type { UserInfo } from '@orch/apimachinery/auth';
import { newInternalError } from '@orch/apimachinery/errors';
import { withoutManagedFields } from '../audit/event.js';
import type { AuditEvent, AuditMetrics, AuditUser, ObjectReference } from '../audit/event.js';
import type { AuditBackend } from '../audit/backends/backend.js';
import type { PolicyRuleEvaluator } from '../audit/policy/checker.js';
import { auditGroupVersion, levelAtLeast } from '../audit/policy/types.js';
import type { RequestAuditConfig, Stage } from '../audit/policy/types.js';
import type { Handler, HttpRequest, HttpResponse } from '../http/handler.js';
import {
  auditAnnotationsFrom,
  auditIdFrom,
  bodyFrom,
  requestInfoFrom,
  userFrom,
} from '../request/context.js';
import { isLongRunning } from '../request/long-running.js';
import type { RequestInfo } from '../request/request-info.js';
import { impersonatorFrom } from './with-impersonation.js';

export interface AuditConfig {
  evaluator: PolicyRuleEvaluator;
  backend: AuditBackend;
  metrics?: AuditMetrics;
  /**
   * A backend stores events before the answer goes (the log, or a blocking webhook): the
   * ResponseComplete event is then written when the handler ends the response, and waited for.
   * Otherwise (batch webhooks alone) it is built once the answer is out ('finish'), off the
   * request's path and without wrapping the response's `end`.
   */
  completeBeforeAnswer?: boolean;
}

/** Response bodies past this size are not recorded (upstream truncates large events too). */
const maxRecordedResponse = 4 * 1024 * 1024;

interface AuditState {
  config?: RequestAuditConfig;
  received: string;
  /** A blocking-strict backend could not store RequestReceived: the request failed. */
  failed?: boolean;
  responseChunks?: Buffer[];
  responseBytes: number;
}
const states = new WeakMap<HttpRequest, AuditState>();

const userJson = (u: UserInfo): AuditUser => ({
  username: u.name,
  ...(u.uid ? { uid: u.uid } : {}),
  groups: u.groups,
  ...(Object.keys(u.extra).length > 0 ? { extra: u.extra } : {}),
});

function evaluate(c: AuditConfig, req: HttpRequest, s: AuditState): RequestAuditConfig {
  if (s.config) return s.config;
  const info = requestInfoFrom(req);
  const user = impersonatorFrom(req) ?? userFrom(req);
  s.config = c.evaluator({
    user,
    verb: info?.verb ?? (req.method ?? '').toLowerCase(),
    isResourceRequest: info?.isResourceRequest ?? false,
    path: info?.path ?? (req.url ?? '').split('?')[0]!,
    ...(info?.isResourceRequest
      ? {
          namespace: info.namespace,
          apiGroup: info.apiGroup,
          resource: info.resource,
          subresource: info.subresource,
          name: info.name,
        }
      : {}),
  });
  c.metrics?.levels.inc({ level: s.config.level });
  return s.config;
}

const objectRefOf = (info: RequestInfo, name: string): ObjectReference => ({
  resource: info.resource,
  ...(info.namespace ? { namespace: info.namespace } : {}),
  ...(name ? { name } : {}),
  apiGroup: info.apiGroup,
  apiVersion: info.apiVersion,
  ...(info.subresource ? { subresource: info.subresource } : {}),
});

/** Whether `o` has an own key, without building the array of its keys. */
function hasKeys(o: object): boolean {
  for (const _k in o) return true;
  return false;
}

/**
 * The event of one stage, its fields set one after the other in upstream's order (no object
 * spread or rest copy: this runs twice for every audited request). The user, the impersonated
 * user and the annotations are read at each stage: impersonation and authorization come after
 * RequestReceived.
 */
function eventOf(
  req: HttpRequest,
  s: AuditState,
  config: RequestAuditConfig,
  stage: Stage,
  extra: Partial<AuditEvent>
): AuditEvent {
  const info = requestInfoFrom(req);
  const impersonator = impersonatorFrom(req);
  const user = userFrom(req);
  const who = impersonator ?? user;
  const ev = {
    kind: 'Event',
    apiVersion: auditGroupVersion,
    level: config.level,
    auditID: auditIdFrom(req) ?? '',
    stage,
    requestURI: req.url ?? '',
    verb: info?.verb ?? (req.method ?? '').toLowerCase(),
    user: who ? userJson(who) : { username: '' },
  } as AuditEvent;
  if (impersonator && user) ev.impersonatedUser = userJson(user);
  ev.sourceIPs = [req.socket.remoteAddress ?? ''];
  ev.userAgent = req.headers['user-agent'] ?? '';
  const objectRef =
    extra.objectRef ?? (info?.isResourceRequest ? objectRefOf(info, info.name) : undefined);
  if (objectRef) ev.objectRef = objectRef;
  if (extra.responseStatus) ev.responseStatus = extra.responseStatus;
  if (extra.requestObject !== undefined) ev.requestObject = extra.requestObject;
  if (extra.responseObject !== undefined) ev.responseObject = extra.responseObject;
  ev.requestReceivedTimestamp = s.received;
  ev.stageTimestamp = new Date().toISOString();
  const annotations = auditAnnotationsFrom(req);
  if (hasKeys(annotations)) ev.annotations = { ...annotations };
  return ev;
}

function emit(
  c: AuditConfig,
  req: HttpRequest,
  s: AuditState,
  stage: Stage,
  extra: Partial<AuditEvent> = {}
): boolean | Promise<boolean> {
  const config = evaluate(c, req, s);
  if (config.level === 'None' || config.omitStages.includes(stage)) return true;
  c.metrics?.events.inc();
  return c.backend.processEvents(eventOf(req, s, config, stage, extra));
}

const parseJson = (buf: Buffer | undefined, contentType: unknown): unknown => {
  if (!buf?.length || !String(contentType ?? 'application/json').includes('json')) return undefined;
  try {
    return JSON.parse(buf.toString('utf8'));
  } catch {
    return undefined;
  }
};

function bodies(req: HttpRequest, res: HttpResponse, s: AuditState): Partial<AuditEvent> {
  const config = s.config!;
  const omit = config.omitManagedFields ? withoutManagedFields : (o: unknown) => o;
  const out: Partial<AuditEvent> = {};
  const info = requestInfoFrom(req);
  const request = levelAtLeast(config.level, 'Request');
  if (info?.isResourceRequest && (request || !info.name)) {
    const o = parseJson(bodyFrom(req), req.headers['content-type']);
    // A create names its object in the body: the reference takes the name from there.
    const name = (o as { metadata?: { name?: unknown } } | undefined)?.metadata?.name;
    if (!info.name && typeof name === 'string' && name) out.objectRef = objectRefOf(info, name);
    if (request && o !== undefined) out.requestObject = omit(o);
  }
  if (s.responseChunks && !res.getHeader('content-encoding')) {
    const o = parseJson(Buffer.concat(s.responseChunks), res.getHeader('content-type'));
    if (o !== undefined) out.responseObject = omit(o);
  }
  return out;
}

/** Records what the handler writes (RequestResponse, requests that end). */
function captureResponse(res: HttpResponse, s: AuditState): void {
  s.responseChunks = [];
  const keep = (chunk: unknown, encoding: unknown): void => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function' || !s.responseChunks)
      return;
    const b = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk as string, (encoding as BufferEncoding | undefined) ?? 'utf8');
    s.responseBytes += b.length;
    if (s.responseBytes > maxRecordedResponse) s.responseChunks = undefined;
    else s.responseChunks.push(b);
  };
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end = res.end.bind(res) as (...a: unknown[]) => HttpResponse;
  (res as { write: unknown }).write = (...a: unknown[]) => (keep(a[0], a[1]), write(...a));
  (res as { end: unknown }).end = (...a: unknown[]) => (keep(a[0], a[1]), end(...a));
}

/** Emits ResponseStarted when a long-running request's headers go out. */
function onResponseStarted(res: HttpResponse, started: () => void): void {
  for (const m of ['writeHead', 'flushHeaders'] as const) {
    const original = res[m].bind(res) as (...a: unknown[]) => unknown;
    Object.assign(res, {
      [m]: (...a: unknown[]) => {
        const r = original(...a);
        started();
        return r;
      },
    });
  }
}

export const withAudit =
  (next: Handler, c: AuditConfig): Handler =>
  async (req, res) => {
    const s: AuditState = { received: new Date().toISOString(), responseBytes: 0 };
    states.set(req, s);
    let done = false;
    const complete = (): boolean | Promise<boolean> => {
      if (done || s.failed) return true;
      done = true;
      const config = evaluate(c, req, s);
      if (config.level === 'None') return true;
      return emit(c, req, s, 'ResponseComplete', {
        responseStatus: { code: res.statusCode },
        ...bodies(req, res, s),
      });
    };
    // With a blocking backend, ResponseComplete is written when the handler ends the response,
    // and its write is waited for before the end goes out (upstream's handler returns only after
    // it); otherwise once the answer is out. A client that leaves first gets its event at 'close'.
    if (c.completeBeforeAnswer) {
      const end = res.end.bind(res) as (...a: unknown[]) => HttpResponse;
      Object.assign(res, {
        end: (...a: unknown[]) => {
          const stored = complete();
          if (typeof stored === 'boolean') return end(...a);
          void stored.then(() => end(...a));
          return res;
        },
      });
    } else {
      res.once('finish', () => void complete());
    }
    res.once('close', () => void complete());
    try {
      await next(req, res);
    } catch (err) {
      if (!done && !(err instanceof Error && err.name === 'StatusError')) {
        done = true;
        void emit(c, req, s, 'Panic', {
          responseStatus: {
            code: 500,
            status: 'Failure',
            message: `APIServer panic'd: ${String(err)}`,
          },
        });
      }
      throw err;
    }
  };

/** After authentication: the policy evaluated with the user, RequestReceived written. */
export const withAuditPolicy =
  (next: Handler, c: AuditConfig): Handler =>
  (req, res) => {
    const s = states.get(req);
    if (!s) return next(req, res);
    const config = evaluate(c, req, s);
    if (config.level === 'None') return next(req, res);
    const stored = emit(c, req, s, 'RequestReceived');
    if (stored === true) return proceed(req, res, s, config, next, c);
    return (async () => {
      if (!(await stored)) {
        // A blocking-strict backend failed: the request fails, as upstream's, with nothing run.
        s.failed = true;
        throw newInternalError(new Error('failed to store audit event'));
      }
      return proceed(req, res, s, config, next, c);
    })();
  };

/** After RequestReceived: the hooks of the later stages, then the rest of the chain. */
function proceed(
  req: HttpRequest,
  res: HttpResponse,
  s: AuditState,
  config: RequestAuditConfig,
  next: Handler,
  c: AuditConfig
): ReturnType<Handler> {
  const info = requestInfoFrom(req);
  if (isLongRunning(info)) {
    let started = false;
    onResponseStarted(res, () => {
      if (started) return;
      started = true;
      void emit(c, req, s, 'ResponseStarted', { responseStatus: { code: res.statusCode } });
    });
  } else if (config.level === 'RequestResponse') captureResponse(res, s);
  return next(req, res);
}
