// A real HTTPS webhook backend on loopback for tests and the bench: its own CA (the `caBundle`
// a webhook configuration or kubeconfig names), a certificate for 127.0.0.1, localhost and any
// service names asked for (`<name>.<namespace>.svc`), and a handler per request. Every request
// is recorded, so tests count calls instead of timing them.
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCertificateAuthority, issueCertificate } from '@orch/component-base/pki';

/** One request the server received. */
export interface WebhookCall {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON (undefined when it was not JSON). */
  body: unknown;
}

/** What the handler answers: a JSON body (or raw text), a status (200), or no answer at all. */
export interface WebhookAnswer {
  status?: number;
  body?: unknown;
  /** Sent as is instead of JSON (garbage replies). */
  text?: string;
  /** Never answer (timeouts); the socket is closed by stop(). */
  hang?: boolean;
}

export type WebhookHandler = (call: WebhookCall) => WebhookAnswer | Promise<WebhookAnswer>;

export interface WebhookServer {
  /** `https://127.0.0.1:<port><path>`. */
  url(path?: string): string;
  port: number;
  /** The CA's PEM, base64-encoded as `caBundle` fields want it. */
  caBundle: string;
  caPem: string;
  calls: WebhookCall[];
  /** Calls made to one path. */
  callsTo(path: string): WebhookCall[];
  stop(): Promise<void>;
}

export interface WebhookServerOptions {
  /** Extra DNS names for the serving certificate, e.g. `hooks.default.svc`. */
  dnsNames?: string[];
  /** Client certificates are requested and verified against this CA PEM when given. */
  clientCaPem?: string;
}

export async function startWebhookServer(
  handler: WebhookHandler,
  opts: WebhookServerOptions = {}
): Promise<WebhookServer> {
  const ca = await createCertificateAuthority({ commonName: 'webhook-test-ca' });
  const serving = await issueCertificate(ca, {
    commonName: 'webhook',
    dnsNames: ['localhost', ...(opts.dnsNames ?? [])],
    ipAddresses: ['127.0.0.1'],
    usages: ['server'],
  });
  const calls: WebhookCall[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer(
    {
      cert: serving.certPem,
      key: serving.keyPem,
      ...(opts.clientCaPem ? { ca: opts.clientCaPem, requestCert: true } : {}),
    },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          body = undefined;
        }
        const call: WebhookCall = { path: req.url ?? '/', headers: req.headers, body };
        calls.push(call);
        void Promise.resolve()
          .then(() => handler(call))
          .then(
            (answer) => {
              if (answer.hang) {
                hanging.add(res);
                return;
              }
              const text = answer.text ?? JSON.stringify(answer.body ?? {});
              res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json' });
              res.end(text);
            },
            (err: unknown) => {
              res.writeHead(500, { 'Content-Type': 'text/plain' });
              res.end(String(err));
            }
          );
      });
    }
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path = '/') => `https://127.0.0.1:${port}${path}`,
    caPem: ca.certPem,
    caBundle: Buffer.from(ca.certPem).toString('base64'),
    calls,
    callsTo: (path) => calls.filter((c) => c.path === path),
    async stop() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The AdmissionReview a webhook received, as far as answers need it. */
interface Review {
  apiVersion?: string;
  request?: { uid?: string };
}

export interface ReviewAnswer {
  allowed: boolean;
  status?: { code?: number; message?: string };
  /** A JSON Patch, base64-encoded into the reply with patchType JSONPatch. */
  patch?: unknown[];
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
}

/** The AdmissionReview reply to `review`: same apiVersion and uid. */
export function reviewResponse(review: unknown, answer: ReviewAnswer): unknown {
  const r = review as Review;
  const { patch, ...rest } = answer;
  return {
    apiVersion: r.apiVersion ?? 'admission.orch.io/v1',
    kind: 'AdmissionReview',
    response: {
      uid: r.request?.uid ?? '',
      ...rest,
      ...(patch
        ? { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') }
        : {}),
    },
  };
}
