// A small client of the public API over HTTPS with a client certificate (client-go's rest
// client): the controllers and the authorizer's bootstrap act through the API like any other
// client, each with its own identity. Errors come back as StatusError.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { createSecureContext } from 'node:tls';
import { parse as parseYaml } from 'yaml';
import { StatusError, isStatus, newInternalError } from '../errors/index.js';

export interface RestConfig {
  server: string;
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

type Json = Record<string, unknown>;

/** Reads the current context of a kubeconfig (embedded `*-data` or file paths). */
export function loadKubeconfig(path: string): RestConfig {
  const kc = parseYaml(readFileSync(path, 'utf8')) as {
    'current-context'?: string;
    contexts?: { name: string; context: { cluster: string; user: string } }[];
    clusters?: { name: string; cluster: Record<string, string> }[];
    users?: { name: string; user: Record<string, string> }[];
  };
  const ctx = kc.contexts?.find((c) => c.name === kc['current-context']) ?? kc.contexts?.[0];
  const cluster = kc.clusters?.find((c) => c.name === ctx?.context.cluster)?.cluster;
  const user = kc.users?.find((u) => u.name === ctx?.context.user)?.user;
  if (!cluster?.['server'] || !user) throw new Error(`kubeconfig ${path}: no usable context`);
  const data = (o: Record<string, string>, k: string): Buffer =>
    o[`${k}-data`] ? Buffer.from(o[`${k}-data`] ?? '', 'base64') : readFileSync(o[k] ?? '');
  return {
    server: cluster['server'],
    ca: data(cluster, 'certificate-authority'),
    cert: data(user, 'client-certificate'),
    key: data(user, 'client-key'),
  };
}

export class RestClient {
  readonly #config: RestConfig;
  readonly #agent: Agent;
  readonly #bearerToken: (() => string) | undefined;

  #auth(): Record<string, string> {
    return this.#bearerToken ? { Authorization: `Bearer ${this.#bearerToken()}` } : {};
  }

  /**
   * `maxSockets` bounds the connections to the server (default 16); every open watch holds one,
   * so a client with many informers (the garbage collector's) needs more, or requests queue
   * behind the watches for ever.
   */
  /**
   * `bearerToken`: requests carry `Authorization: Bearer <token>` (the current one, e.g. a
   * service account's, refreshed by its owner) instead of the client certificate.
   */
  constructor(config: RestConfig, opts: { maxSockets?: number; bearerToken?: () => string } = {}) {
    this.#config = config;
    this.#bearerToken = opts.bearerToken;
    // One TLS context for every connection: given only ca/cert/key, each new socket parses them
    // into a context of its own (about 20 ms of CPU each, most of a bootstrap's TLS cost).
    const secureContext = createSecureContext({
      ca: config.ca,
      ...(opts.bearerToken ? {} : { cert: config.cert, key: config.key }),
    });
    this.#agent = new Agent({
      secureContext,
      keepAlive: true,
      maxSockets: opts.maxSockets ?? 16,
    });
  }

  request(method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<Json> {
    return new Promise<Json>((resolve, reject) => {
      const url = new URL(path, this.#config.server);
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request(
        url,
        {
          method,
          agent: this.#agent,
          headers: {
            Accept: 'application/json',
            ...this.#auth(),
            // Content-Length always: node sends a DELETE's body unframed otherwise.
            ...(payload
              ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) }
              : {}),
          },
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown;
            try {
              parsed = text ? JSON.parse(text) : {};
            } catch {
              return reject(
                newInternalError(`${method} ${path}: ${res.statusCode}: ${text.slice(0, 200)}`)
              );
            }
            if ((res.statusCode ?? 500) >= 400) {
              return reject(
                isStatus(parsed)
                  ? new StatusError(parsed)
                  : newInternalError(`${method} ${path}: ${res.statusCode}`)
              );
            }
            resolve(parsed as Json);
          });
        }
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timed out`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** A watch stream: calls onEvent per event; resolves when the server ends it. */
  watch(
    path: string,
    onEvent: (e: { type: string; object: Json }) => void,
    signal?: AbortSignal
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const url = new URL(path, this.#config.server);
      url.searchParams.set('watch', '1');
      const req = request(
        url,
        {
          method: 'GET',
          agent: this.#agent,
          headers: { Accept: 'application/json', ...this.#auth() },
          signal,
        },
        (res) => {
          if ((res.statusCode ?? 500) >= 400) {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              let body: unknown;
              try {
                body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
              } catch {
                body = undefined;
              }
              reject(
                isStatus(body)
                  ? new StatusError(body)
                  : newInternalError(`watch ${path}: ${res.statusCode}`)
              );
            });
            return;
          }
          let buf = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buf += chunk;
            let nl;
            while ((nl = buf.indexOf('\n')) >= 0) {
              const line = buf.slice(0, nl).trim();
              buf = buf.slice(nl + 1);
              if (line) onEvent(JSON.parse(line) as { type: string; object: Json });
            }
          });
          res.on('end', () => resolve());
          res.on('error', reject);
        }
      );
      req.on('error', (err) => (signal?.aborted ? resolve() : reject(err)));
      req.end();
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}
