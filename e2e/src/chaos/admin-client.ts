// The chaos test's HTTPS client of the gateways: the suite's admin certificate, one keep-alive
// agent per gateway, every request bounded in time; a connection failure or timeout is an
// answer of status 0 (the caller retries), never an exception.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { Suite } from '@orch/testing';

export interface Answer {
  /** 0: no HTTP answer (connection refused or reset, timeout). */
  status: number;
  body: unknown;
  error?: string;
}

export class AdminClient {
  readonly #urls: string[];
  readonly #agents: Agent[];

  constructor(suite: Suite) {
    const admin = suite.pki.file('admin');
    const tls = {
      ca: readFileSync(suite.pki.caFile),
      cert: readFileSync(admin.certFile),
      key: readFileSync(admin.keyFile),
    };
    this.#urls = suite.gateways;
    this.#agents = suite.gateways.map(
      () => new Agent({ ...tls, keepAlive: true, maxSockets: 256, maxFreeSockets: 32 })
    );
  }

  get gatewayCount(): number {
    return this.#urls.length;
  }

  /** One request with a JSON body and answer, at most `timeoutMs`. */
  call(
    gateway: number,
    method: string,
    path: string,
    body?: unknown,
    timeoutMs = 10_000
  ): Promise<Answer> {
    return new Promise((resolve) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request(
        new URL(path, this.#urls[gateway]),
        {
          method,
          agent: this.#agents[gateway],
          timeout: timeoutMs,
          headers: {
            Accept: 'application/json',
            ...(payload ? { 'Content-Type': 'application/json' } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              // not JSON
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
          res.on('error', (err) => resolve({ status: 0, body: undefined, error: err.message }));
        }
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', (err) => resolve({ status: 0, body: undefined, error: err.message }));
      req.end(payload);
    });
  }

  /**
   * Opens a streaming GET (a watch). Resolves with the response once its head arrived, or with
   * the error; the caller reads and ends the stream.
   */
  stream(
    gateway: number,
    path: string,
    headTimeoutMs = 10_000
  ): Promise<{ res: IncomingMessage; abort: () => void } | { error: string }> {
    return new Promise((resolve) => {
      const req = request(new URL(path, this.#urls[gateway]), {
        method: 'GET',
        agent: this.#agents[gateway],
        headers: { Accept: 'application/json' },
      });
      const timer = setTimeout(
        () => req.destroy(new Error(`no response head within ${headTimeoutMs} ms`)),
        headTimeoutMs
      );
      req.on('response', (res) => {
        clearTimeout(timer);
        resolve({ res, abort: () => req.destroy() });
      });
      req.on('error', (err) => {
        clearTimeout(timer);
        resolve({ error: err.message });
      });
      req.end();
    });
  }

  close(): void {
    for (const a of this.#agents) a.destroy();
  }
}
