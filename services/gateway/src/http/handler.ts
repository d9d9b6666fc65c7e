// The handler contract of the gateway's chain (upstream's http.Handler): a request and a response
// that Node's HTTP/1.1 server (IncomingMessage, ServerResponse) and its HTTP/2 compatibility API
// (Http2ServerRequest, Http2ServerResponse) both satisfy, so one chain serves both protocols.
import { ServerResponse } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import type { Socket } from 'node:net';
import type { Duplex, Readable, Writable } from 'node:stream';
import type { TLSSocket } from 'node:tls';

/** What the chain reads of a request: its line, its headers, its connection and its body stream. */
export interface HttpRequest extends Readable {
  readonly method?: string | undefined;
  /** The request target: path and query. */
  readonly url?: string | undefined;
  /** Lowercased names; on HTTP/2 also the pseudo-headers (`:method`, `:path`, `:authority`). */
  readonly headers: IncomingHttpHeaders;
  /** Names and values as sent, repeated headers apart. */
  readonly rawHeaders: string[];
  /** `1.1` or `2.0`. */
  readonly httpVersion: string;
  /** The connection; on HTTP/2 a per-stream view of the session's socket. */
  readonly socket: Socket;
}

/** What the chain writes of a response. */
export interface HttpResponse extends Writable {
  statusCode: number;
  readonly headersSent: boolean;
  setHeader(name: string, value: number | string | readonly string[]): unknown;
  getHeader(name: string): number | string | string[] | undefined;
  hasHeader(name: string): boolean;
  removeHeader(name: string): void;
  writeHead(statusCode: number, headers?: OutgoingHttpHeaders): unknown;
  /** Sends the status line and headers now (a watch's first bytes). */
  flushHeaders(): void;
}

// Node's compatibility response has flushHeaders (lib/internal/http2/compat.js) but its typings
// lack it.
declare module 'node:http2' {
  interface Http2ServerResponse {
    flushHeaders(): void;
  }
}

/** One stage of the chain, or an endpoint: it answers the request or hands it on. */
export type Handler = (req: HttpRequest, res: HttpResponse) => void | Promise<void>;

/** The protocol a request came over, as Go's `Request.Proto`: `HTTP/1.1` or `HTTP/2.0`. */
export function protocolOf(req: HttpRequest): string {
  return `HTTP/${req.httpVersion}`;
}

/**
 * The TLS socket of the request's connection, the same object for every request on it (on
 * HTTP/2 `req.socket` is a new view per stream, so per-connection caches key on this instead).
 */
export function connectionOf(req: HttpRequest): TLSSocket {
  const session = (req as Partial<Http2ServerRequest>).stream?.session;
  return (session?.socket ?? req.socket) as TLSSocket;
}

/**
 * A handler as a `request` listener of `node:http`, `node:https` or `node:http2`: an error that
 * escapes it (the chain's panic recovery answers all others) ends the response.
 */
export function requestListener(handler: Handler): (req: HttpRequest, res: HttpResponse) => void {
  return (req, res) => {
    try {
      const done = handler(req, res);
      if (done) done.catch(() => res.destroy());
    } catch {
      res.destroy();
    }
  };
}

/**
 * The HTTP/1.1 upgrade requests of the server ('upgrade' event): a response is made on the
 * connection so that the chain answers them as any request (authentication, authorization,
 * admission, a Status on refusal); the endpoint that accepts the upgrade takes over the socket
 * (`req.socket`). A request answered without upgrade closes its connection afterwards.
 */
export function upgradeListener(
  handler: Handler
): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const listener = requestListener(handler);
  return (req, socket, head) => {
    if (head.length > 0) socket.unshift(head);
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Socket);
    res.once('finish', () => socket.end());
    listener(req, res);
  };
}
