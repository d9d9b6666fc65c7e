// A JSON POST to a webhook backend with upstream's retries (k8s.io/apiserver/pkg/util/webhook
// GenericWebhook, WithExponentialBackoff, DefaultShouldRetry, DefaultRetryBackoffWithInitialDelay):
// at most 5 attempts, waits starting at the configured backoff and growing by 1.5 with 20%
// jitter; retried are a reset connection and answers 500, 504, 429 or any carrying Retry-After.
// Each attempt has a request timeout (upstream's 30 s) and the caller's signal ends it all.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

import type { WebhookClientConfig } from './webhook-kubeconfig.js';

export const defaultRequestTimeoutMs = 30_000;
export const retrySteps = 5;
const retryFactor = 1.5;
const retryJitter = 0.2;

export interface WebhookClientOptions {
  /** Wait before the first retry; 0 retries at once. */
  retryBackoffMs: number;
  /** Per attempt; default {@link defaultRequestTimeoutMs}. */
  requestTimeoutMs?: number;
}

/** A failed call: `retriable` as upstream's DefaultShouldRetry judges it. */
export class WebhookCallError extends Error {
  override readonly name = 'WebhookCallError';
  readonly retriable: boolean;
  readonly statusCode: number | undefined;

  constructor(message: string, retriable: boolean, statusCode?: number) {
    super(message);
    this.retriable = retriable;
    this.statusCode = statusCode;
  }
}

const retriableCodes = new Set([500, 504, 429]);
const retriableErrnos = new Set(['ECONNRESET', 'EPIPE']);

export class WebhookClient {
  readonly #config: WebhookClientConfig;
  readonly #agent: HttpAgent | HttpsAgent;
  readonly #retryBackoffMs: number;
  readonly #timeoutMs: number;
  readonly #headers: Record<string, string>;

  constructor(config: WebhookClientConfig, options: WebhookClientOptions) {
    this.#config = config;
    this.#retryBackoffMs = options.retryBackoffMs;
    this.#timeoutMs = options.requestTimeoutMs ?? defaultRequestTimeoutMs;
    this.#headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
    if (config.token) this.#headers['Authorization'] = `Bearer ${config.token}`;
    else if (config.username !== undefined) {
      const basic = Buffer.from(`${config.username}:${config.password ?? ''}`).toString('base64');
      this.#headers['Authorization'] = `Basic ${basic}`;
    }
    if (config.server.protocol === 'https:') {
      this.#agent = new HttpsAgent({
        keepAlive: true,
        ...(config.ca ? { ca: config.ca } : {}),
        ...(config.cert && config.key ? { cert: config.cert, key: config.key } : {}),
        ...(config.serverName ? { servername: config.serverName } : {}),
        rejectUnauthorized: !config.insecureSkipTlsVerify,
      });
    } else {
      this.#agent = new HttpAgent({ keepAlive: true });
    }
  }

  /** Closes idle connections. */
  close(): void {
    this.#agent.destroy();
  }

  /** POSTs `body` and returns the parsed 2xx answer, retrying as upstream does. */
  async post(body: unknown, signal: AbortSignal): Promise<unknown> {
    const payload = Buffer.from(JSON.stringify(body));
    let delay = this.#retryBackoffMs;
    let lastError: unknown;
    for (let attempt = 1; attempt <= retrySteps; attempt++) {
      if (signal.aborted) throw aborted(signal);
      try {
        return await this.#once(payload, signal);
      } catch (err) {
        if (signal.aborted) throw aborted(signal);
        lastError = err;
        if (!(err instanceof WebhookCallError) || !err.retriable) throw err;
      }
      if (attempt < retrySteps && delay > 0) {
        await sleep(delay + Math.random() * retryJitter * delay, signal).catch(() => {
          throw aborted(signal);
        });
        delay *= retryFactor;
      }
    }
    throw lastError;
  }

  #once(payload: Buffer, signal: AbortSignal): Promise<unknown> {
    const request = this.#config.server.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<unknown>((resolve, reject) => {
      let timedOut: WebhookCallError | undefined;
      const req = request(
        this.#config.server,
        {
          method: 'POST',
          agent: this.#agent,
          headers: { ...this.#headers, 'Content-Length': String(payload.length) },
          signal,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (err) => reject(toCallError(err)));
          res.on('close', () => {
            if (!res.complete) {
              reject(
                timedOut ?? new WebhookCallError('Error contacting webhook: answer cut short', true)
              );
            }
          });
          res.on('end', () => {
            const code = res.statusCode ?? 0;
            const text = Buffer.concat(chunks).toString('utf8');
            if (code < 200 || code >= 300) {
              const retriable =
                retriableCodes.has(code) || res.headers['retry-after'] !== undefined;
              const snippet = text.length > 200 ? `${text.slice(0, 200)}...` : text;
              return reject(
                new WebhookCallError(
                  `Error contacting webhook: ${code}${snippet ? `: ${snippet}` : ''}`,
                  retriable,
                  code
                )
              );
            }
            try {
              resolve(JSON.parse(text));
            } catch {
              reject(
                new WebhookCallError(
                  `webhook answered ${code} with a body that is not JSON: ${text.slice(0, 200)}`,
                  false,
                  code
                )
              );
            }
          });
        }
      );
      // The whole exchange, as Go's http.Client.Timeout (not only an idle socket).
      const timer = setTimeout(() => {
        timedOut = new WebhookCallError(
          `webhook call timed out after ${this.#timeoutMs / 1000}s (Client.Timeout exceeded)`,
          false
        );
        req.destroy(timedOut);
      }, this.#timeoutMs);
      req.on('close', () => clearTimeout(timer));
      req.on('error', (err) => reject(toCallError(err)));
      req.end(payload);
    });
  }
}

function aborted(signal: AbortSignal): WebhookCallError {
  const reason: unknown = signal.reason;
  const why = reason instanceof Error ? reason.message : String(reason);
  return new WebhookCallError(`webhook call abandoned: ${why}`, false);
}

function toCallError(err: unknown): unknown {
  if (err instanceof WebhookCallError) return err;
  const e = err as NodeJS.ErrnoException;
  if (e?.name === 'AbortError') return err;
  return new WebhookCallError(
    `Error contacting webhook: ${e?.message ?? String(err)}`,
    retriableErrnos.has(e?.code ?? '')
  );
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
