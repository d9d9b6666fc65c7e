// How the gateway reaches pods and service endpoints for pods/proxy and services/proxy
// (kube-apiserver's proxy transport with apimachinery's util/proxy Transport around it): plain
// HTTP, or HTTPS without verifying the backend (upstream's InsecureSkipVerify) and with the front
// proxy's client certificate (--proxy-client-cert-file) when one is configured; the request gets
// X-Forwarded-Uri (the path the client asked for), Access-Control-* headers are dropped from the
// answer (upstream's corsRemovingTransport), and a backend that cannot be reached is 503
// `error trying to reach service: <cause>`.
import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { posix } from 'node:path';
import { createSecureContext } from 'node:tls';
import { newServiceUnavailable } from '@orch/apimachinery/errors';
import { dialCause } from './nodes/kubelet-client.js';

export class ProxyTransport {
  readonly #http = new HttpAgent({ keepAlive: true });
  readonly #https: HttpsAgent;

  constructor(
    opts: { certFile: string; keyFile: string },
    private readonly timeoutMs = 30_000
  ) {
    this.#https = new HttpsAgent({
      keepAlive: true,
      rejectUnauthorized: false,
      // one TLS context, not one parsed from cert and key for each new connection
      secureContext: createSecureContext(
        opts.certFile && opts.keyFile
          ? { cert: readFileSync(opts.certFile), key: readFileSync(opts.keyFile) }
          : {}
      ),
    });
  }

  /** Resolves with the backend's answer once its headers arrived; drops its CORS headers. */
  request(
    method: string,
    url: URL,
    headers: OutgoingHttpHeaders,
    body: Buffer | undefined
  ): Promise<IncomingMessage> {
    const https = url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      const fail = (cause: string): void => {
        req.destroy();
        reject(newServiceUnavailable(`error trying to reach service: ${cause}`));
      };
      const send = https ? httpsRequest : httpRequest;
      const req = send(url, { method, headers, agent: https ? this.#https : this.#http }, (res) => {
        clearTimeout(timer);
        for (const name of Object.keys(res.headers))
          if (name.startsWith('access-control-')) delete res.headers[name];
        resolve(res);
      });
      const timer = setTimeout(
        () => fail('net/http: timeout awaiting response headers'),
        this.timeoutMs
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        fail(dialCause(err, url));
      });
      req.end(body);
    });
  }

  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}

/**
 * upstream's X-Forwarded-Uri: the client's path up to the proxied part, joined with the path
 * sent to the backend (its trailing slash kept).
 */
export function forwardedUri(requestPath: string, backendPath: string): string {
  let suffix = backendPath;
  if (requestPath.endsWith('/') && !suffix.endsWith('/')) suffix += '/';
  const prepend = requestPath.endsWith(suffix)
    ? requestPath.slice(0, requestPath.length - suffix.length)
    : requestPath;
  const joined = posix.join(prepend || '/', backendPath);
  return backendPath.endsWith('/') && !joined.endsWith('/') ? `${joined}/` : joined;
}
