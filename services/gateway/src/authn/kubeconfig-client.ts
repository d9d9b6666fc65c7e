// An HTTPS client from a kubeconfig-format file (the webhook config files): the current (or only)
// context's cluster server and CA, and its user's client certificate or bearer token. The TLS
// context is built once: a request costs no key or CA parsing.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { createSecureContext } from 'node:tls';
import { dirname, isAbsolute, join } from 'node:path';
import { parse as parseYaml } from 'yaml';

export interface KubeconfigClient {
  server: URL;
  /** POSTs `body` as JSON (a Buffer is sent as it is: JSON encoded by the caller). */
  post(body: unknown, timeoutMs: number): Promise<{ status: number; body: unknown }>;
}

interface Named<T> {
  name: string;
  [key: string]: unknown;
  cluster?: T;
  user?: T;
  context?: T;
}

export function kubeconfigClient(file: string): KubeconfigClient {
  const doc = parseYaml(readFileSync(file, 'utf8')) as {
    clusters?: Named<Record<string, unknown>>[];
    users?: Named<Record<string, unknown>>[];
    contexts?: Named<{ cluster?: string; user?: string }>[];
    'current-context'?: string;
  };
  const ctx =
    doc.contexts?.find((c) => c.name === doc['current-context'])?.context ??
    doc.contexts?.[0]?.context;
  const cluster = (
    ctx?.cluster ? doc.clusters?.find((c) => c.name === ctx.cluster) : doc.clusters?.[0]
  )?.cluster;
  const user =
    (ctx?.user ? doc.users?.find((u) => u.name === ctx.user) : doc.users?.[0])?.user ?? {};
  if (!cluster || typeof cluster['server'] !== 'string')
    throw new Error(`${file}: no cluster with a server`);
  const server = new URL(cluster['server']);
  if (server.protocol !== 'https:') throw new Error(`${file}: the webhook server must be https`);
  const path = (p: unknown): string =>
    isAbsolute(String(p)) ? String(p) : join(dirname(file), String(p));
  const pem = (data: unknown, f: unknown): Buffer | undefined =>
    typeof data === 'string'
      ? Buffer.from(data, 'base64')
      : typeof f === 'string'
        ? readFileSync(path(f))
        : undefined;
  const ca = pem(cluster['certificate-authority-data'], cluster['certificate-authority']);
  const cert = pem(user['client-certificate-data'], user['client-certificate']);
  const key = pem(user['client-key-data'], user['client-key']);
  const token =
    typeof user['token'] === 'string'
      ? user['token']
      : typeof user['tokenFile'] === 'string'
        ? readFileSync(path(user['tokenFile']), 'utf8').trim()
        : undefined;
  const secureContext = createSecureContext({
    ...(ca ? { ca } : {}),
    ...(cert && key ? { cert, key } : {}),
  });
  const rejectUnauthorized = cluster['insecure-skip-tls-verify'] !== true;
  // Its own agent: the shared one would pool connections made with another file's credentials.
  const agent = new Agent({ secureContext, rejectUnauthorized });
  return {
    server,
    post: (body, timeoutMs) =>
      new Promise((resolve, reject) => {
        const payload = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
        const req = request(
          server,
          {
            method: 'POST',
            agent,
            rejectUnauthorized,
            timeout: timeoutMs,
            headers: {
              'Content-Type': 'application/json',
              Accept: 'application/json',
              'Content-Length': payload.length,
              ...(token ? { Authorization: `Bearer ${token}` } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              try {
                resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown });
              } catch {
                resolve({ status: res.statusCode ?? 0, body: text });
              }
            });
          }
        );
        req.on('timeout', () =>
          req.destroy(new Error(`webhook ${server.href} timed out after ${timeoutMs} ms`))
        );
        req.on('error', reject);
        req.end(payload);
      }),
  };
}
