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
  /** The Content-Type (default application/json). */
  contentType?: string;
}

export type WebhookHandler = (call: WebhookCall) => WebhookAnswer | Promise<WebhookAnswer>;

export interface WebhookServer {
  /** `https://127.0.0.1:<port><path>`. */
  url(path?: string): string;
  port: number;
  /** The CA's PEM, base64-encoded as `caBundle` fields want it. */
  caBundle: string;
  caPem: string;
  /** Its certificate, key and CA, to start another server that clients trust alike. */
  serving: ServingPems;
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
  /** The port (default: a free one), to start a server again where it was. */
  port?: number;
  /** Serve with these (another server's {@link WebhookServer.serving}) instead of a new CA. */
  serving?: ServingPems;
}

/** A serving certificate, its key and the CA that signed it, PEM. */
export interface ServingPems {
  caPem: string;
  certPem: string;
  keyPem: string;
}

export async function startWebhookServer(
  handler: WebhookHandler,
  opts: WebhookServerOptions = {}
): Promise<WebhookServer> {
  const pems = opts.serving ?? (await newServingPems(opts.dnsNames ?? []));
  const calls: WebhookCall[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer(
    {
      cert: pems.certPem,
      key: pems.keyPem,
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
              res.writeHead(answer.status ?? 200, {
                'Content-Type': answer.contentType ?? 'application/json',
              });
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
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path = '/') => `https://127.0.0.1:${port}${path}`,
    caPem: pems.caPem,
    caBundle: Buffer.from(pems.caPem).toString('base64'),
    serving: pems,
    calls,
    callsTo: (path) => calls.filter((c) => c.path === path),
    async stop() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function newServingPems(dnsNames: string[]): Promise<ServingPems> {
  const ca = await createCertificateAuthority({ commonName: 'webhook-test-ca' });
  const serving = await issueCertificate(ca, {
    commonName: 'webhook',
    dnsNames: ['localhost', ...dnsNames],
    ipAddresses: ['127.0.0.1'],
    usages: ['server'],
  });
  return { caPem: ca.certPem, certPem: serving.certPem, keyPem: serving.keyPem };
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
