// One webhook's HTTPS client: where it dials (clientConfig.url, or clientConfig.service through
// serviceAddresses), the TLS trust (caBundle, else the system roots), the server name the
// certificate must be valid for, the credentials from the credential file, and the POST of a
// review (an AdmissionReview, a ConversionReview) with a deadline. Built once per configuration
// version.
// Upstream: k8s.io/apiserver/pkg/util/webhook/client.go (ClientManager.HookClient),
// k8s.io/apiserver/pkg/util/webhook/validation.go (ValidateWebhookURL, ValidateWebhookService).
import { Agent, request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { createSecureContext, type SecureContextOptions } from 'node:tls';

import type { AuthenticationInfoResolver } from './authentication-info-resolver.js';

/** admissionregistration/v1 WebhookClientConfig as stored. */
export interface WebhookClientConfig {
  url?: string | null;
  service?: {
    namespace?: string;
    name?: string;
    path?: string | null;
    port?: number | null;
  } | null;
  /** PEM, base64 of PEM as the JSON form of bytes carries it. */
  caBundle?: string | null;
}

const serviceKeyPattern = /^[a-z0-9-]+\.[a-z0-9-]+\.svc(:[0-9]{1,5})?$/;
const hostPortPattern = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})$/;

/**
 * What is wrong with one entry of a service address map (`<name>.<namespace>.svc[:<port>]` to
 * the `host:port` dialled), as a sentence; '' when nothing is. There is no cluster DNS here, so
 * how `clientConfig.service` reaches its backend is configuration: the admission service's
 * `serviceAddresses`, the gateway's --webhook-service-addresses.
 */
export function serviceAddressProblem(key: string, value: unknown): string {
  if (!serviceKeyPattern.test(key)) {
    return 'the key must be <name>.<namespace>.svc or <name>.<namespace>.svc:<port>';
  }
  if (typeof value !== 'string' || !hostPortPattern.test(value)) {
    return 'the value must be host:port';
  }
  return '';
}

/** The largest reply read; more is a failed call. */
export const maxReplyBytes = 16 * 1024 * 1024;

/** What a call returns: the HTTP status and the decoded JSON body. */
export interface WebhookReply {
  statusCode: number;
  body: unknown;
}

export interface WebhookClient {
  /** The URL called, for messages (`https://name.namespace.svc:443/path` for a service). */
  readonly url: string;
  /**
   * POSTs the review; throws an Error saying what went wrong (`Post "<url>": <why>`, or a
   * ReplyStatusError or InvalidReplyError); the caller names the webhook.
   */
  post(review: unknown, timeoutMs: number, signal: AbortSignal): Promise<WebhookReply>;
  close(): void;
}

function caBundlePem(bundle: string): string {
  const trimmed = bundle.trim();
  if (trimmed.startsWith('-----BEGIN')) return trimmed;
  return Buffer.from(trimmed, 'base64').toString('utf8');
}

function splitHostPort(hostPort: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(hostPort);
  if (!m) throw new Error(`invalid address ${JSON.stringify(hostPort)}`);
  return { host: m[1] ?? m[2] ?? '', port: Number(m[3]) };
}

interface Target {
  url: string;
  dialHost: string;
  dialPort: number;
  path: string;
  hostHeader: string;
  serverName: string | undefined;
  authTarget: { service: { name: string; namespace: string; port: number } } | { hostPort: string };
}

function targetOf(
  cc: WebhookClientConfig,
  serviceAddresses: Readonly<Record<string, string>>
): Target {
  if (cc.url) {
    if (cc.service) throw new Error('exactly one of url and service is allowed');
    let u: URL;
    try {
      u = new URL(cc.url);
    } catch {
      throw new Error(`invalid url ${JSON.stringify(cc.url)}`);
    }
    if (u.protocol !== 'https:')
      throw new Error(
        `'https' is the only allowed URL scheme, got ${JSON.stringify(u.protocol.slice(0, -1))}`
      );
    if (u.username || u.password) throw new Error('user information is not permitted in the URL');
    if (u.hash || cc.url.includes('#')) throw new Error('fragments are not permitted in the URL');
    if (u.search || cc.url.includes('?'))
      throw new Error('query parameters are not permitted in the URL');
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const port = u.port ? Number(u.port) : 443;
    const hostPort = isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
    return {
      url: cc.url,
      dialHost: host,
      dialPort: port,
      path: `${u.pathname}`,
      hostHeader: u.host,
      serverName: isIP(host) === 0 ? host : undefined,
      authTarget: { hostPort },
    };
  }
  const svc = cc.service;
  if (!svc) throw new Error('exactly one of url and service is required');
  if (!svc.name || !svc.namespace) throw new Error('service name and namespace are required');
  const port = svc.port ?? 443;
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`invalid service port ${port}`);
  const path = svc.path ? svc.path : '/';
  if (!path.startsWith('/'))
    throw new Error(`service path must start with "/", got ${JSON.stringify(path)}`);
  const dns = `${svc.name}.${svc.namespace}.svc`;
  const mapped = serviceAddresses[`${dns}:${port}`] ?? serviceAddresses[dns];
  const dial = mapped ? splitHostPort(mapped) : { host: dns, port };
  return {
    url: `https://${dns}:${port}${path}`,
    dialHost: dial.host,
    dialPort: dial.port,
    path,
    hostHeader: port === 443 ? dns : `${dns}:${port}`,
    serverName: dns,
    authTarget: { service: { name: svc.name, namespace: svc.namespace, port } },
  };
}

/**
 * Builds the client of one webhook. Throws an Error when the client configuration cannot be
 * used (the call then fails as upstream's "could not get REST client").
 */
export function newWebhookClient(
  cc: WebhookClientConfig,
  serviceAddresses: Readonly<Record<string, string>>,
  auth: AuthenticationInfoResolver
): WebhookClient {
  const t = targetOf(cc, serviceAddresses);
  const info =
    'service' in t.authTarget
      ? auth.forService(
          t.authTarget.service.name,
          t.authTarget.service.namespace,
          t.authTarget.service.port
        )
      : auth.forHostPort(t.authTarget.hostPort);
  const tlsOptions: SecureContextOptions = {};
  if (cc.caBundle) tlsOptions.ca = caBundlePem(cc.caBundle);
  if (info.certPem && info.keyPem) {
    tlsOptions.cert = info.certPem;
    tlsOptions.key = info.keyPem;
  }
  // One TLS context for the client's connections, not one parsed again per socket.
  const agent = new Agent({ keepAlive: true, secureContext: createSecureContext(tlsOptions) });
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    Host: t.hostHeader,
  };
  if (info.token !== undefined) headers['Authorization'] = `Bearer ${info.token}`;
  else if (info.username !== undefined) {
    const basic = Buffer.from(`${info.username}:${info.password ?? ''}`).toString('base64');
    headers['Authorization'] = `Basic ${basic}`;
  }

  return {
    url: t.url,
    close: () => agent.destroy(),
    post(review, timeoutMs, signal) {
      const body = Buffer.from(JSON.stringify(review));
      return new Promise<WebhookReply>((resolve, reject) => {
        // One timer and one listener per call (AbortSignal.timeout and AbortSignal.any cost
        // more than the rest of a call's bookkeeping); `settle` ends both, once.
        let settled = false;
        const settle = (): boolean => {
          if (settled) return false;
          settled = true;
          clearTimeout(timer);
          signal.removeEventListener('abort', onCancel);
          return true;
        };
        const fail = (why: string): void => {
          if (settle()) reject(new Error(`Post "${t.url}": ${why}`));
        };
        const stop = (why: string): void => {
          if (settled) return;
          req.destroy();
          fail(why);
        };
        const onCancel = (): void => stop('the request was cancelled');
        const timer = setTimeout(() => stop(`timed out after ${timeoutMs / 1000}s`), timeoutMs);
        const req = httpsRequest(
          {
            method: 'POST',
            host: t.dialHost,
            port: t.dialPort,
            path: t.path,
            agent,
            headers: { ...headers, 'Content-Length': String(body.length) },
            ...(t.serverName !== undefined ? { servername: t.serverName } : {}),
          },
          (res: IncomingMessage) => {
            const chunks: Buffer[] = [];
            let size = 0;
            res.on('data', (chunk: Buffer) => {
              size += chunk.length;
              if (size > maxReplyBytes) {
                res.destroy();
                fail(`the reply is larger than ${maxReplyBytes} bytes`);
                return;
              }
              chunks.push(chunk);
            });
            res.on('error', (err) => fail(err.message));
            res.on('end', () => {
              if (!settle()) return;
              const text = Buffer.concat(chunks).toString('utf8');
              const statusCode = res.statusCode ?? 0;
              if (statusCode !== 200) {
                reject(new ReplyStatusError(statusCode, text));
                return;
              }
              try {
                resolve({ statusCode, body: JSON.parse(text) as unknown });
              } catch (err) {
                reject(
                  new InvalidReplyError(
                    `received invalid webhook response: ${(err as Error).message}`
                  )
                );
              }
            });
          }
        );
        if (signal.aborted) {
          onCancel();
          return;
        }
        signal.addEventListener('abort', onCancel, { once: true });
        req.on('error', (err) => fail(err.message));
        req.end(body);
      });
    },
  };
}

/** The webhook answered with an HTTP status other than 200. */
export class ReplyStatusError extends Error {
  override readonly name = 'ReplyStatusError';
  readonly statusCode: number;

  constructor(statusCode: number, body: string) {
    // eslint-disable-next-line no-control-regex
    const flat = body.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');
    const snippet = flat.length > 200 ? `${flat.slice(0, 200)}...` : flat;
    super(`the server responded with status ${statusCode}${snippet ? `: ${snippet.trim()}` : ''}`);
    this.statusCode = statusCode;
  }
}

/** The reply was not JSON. */
export class InvalidReplyError extends Error {
  override readonly name = 'InvalidReplyError';
}
