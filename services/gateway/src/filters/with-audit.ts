// The audit log (--audit-log-path): one JSON line per request at ResponseComplete, with the
// authenticated identity, the impersonated one, verb, URI, object, response code and the
// request's audit annotations.
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import type { Handler } from '../http/handler.js';
import {
  auditAnnotationsFrom,
  auditIdFrom,
  requestInfoFrom,
  userFrom,
} from '../request/context.js';
import type { UserInfo } from '@orch/apimachinery/auth';
import { impersonatorFrom } from './with-impersonation.js';

export interface AuditSink {
  write(event: Record<string, unknown>): void;
  close(): Promise<void>;
}

/** JSON lines appended to a file, or standard output for `-`. */
export function fileAuditSink(path: string): AuditSink {
  const out: Writable =
    path === '-' ? process.stdout : createWriteStream(path, { flags: 'a', mode: 0o600 });
  return {
    write: (e) => void out.write(`${JSON.stringify(e)}\n`),
    close: () =>
      path === '-' ? Promise.resolve() : new Promise<void>((resolve) => out.end(() => resolve())),
  };
}

const userJson = (u: UserInfo | undefined): Record<string, unknown> | undefined =>
  u && {
    username: u.name,
    ...(u.uid ? { uid: u.uid } : {}),
    groups: u.groups,
    ...(Object.keys(u.extra).length > 0 ? { extra: u.extra } : {}),
  };

export const withAudit =
  (next: Handler, sink: AuditSink): Handler =>
  (req, res) => {
    const received = new Date().toISOString();
    let done = false;
    const emit = (): void => {
      if (done) return;
      done = true;
      const info = requestInfoFrom(req);
      const impersonator = impersonatorFrom(req);
      const user = userFrom(req);
      const annotations = auditAnnotationsFrom(req);
      sink.write({
        kind: 'Event',
        apiVersion: 'audit.orch.io/v1',
        level: 'Metadata',
        auditID: auditIdFrom(req),
        stage: 'ResponseComplete',
        requestURI: req.url ?? '',
        verb: info?.verb ?? (req.method ?? '').toLowerCase(),
        user: userJson(impersonator ?? user) ?? {},
        ...(impersonator ? { impersonatedUser: userJson(user) } : {}),
        sourceIPs: [req.socket.remoteAddress ?? ''],
        userAgent: req.headers['user-agent'] ?? '',
        ...(info?.isResourceRequest
          ? {
              objectRef: {
                resource: info.resource,
                ...(info.namespace ? { namespace: info.namespace } : {}),
                ...(info.name ? { name: info.name } : {}),
                apiGroup: info.apiGroup,
                apiVersion: info.apiVersion,
                ...(info.subresource ? { subresource: info.subresource } : {}),
              },
            }
          : {}),
        responseStatus: { code: res.statusCode },
        requestReceivedTimestamp: received,
        stageTimestamp: new Date().toISOString(),
        ...(Object.keys(annotations).length > 0 ? { annotations: { ...annotations } } : {}),
      });
    };
    res.on('finish', emit);
    res.on('close', emit);
    return next(req, res);
  };
