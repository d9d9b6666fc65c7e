// For the verb handlers' unit tests: a request scope over a REST object without a server, the
// request and response as the chain hands them to a handler (body already read, request info
// and user in the request context), and the answer written to memory.
import { Readable, Writable } from 'node:stream';
import type { Socket } from 'node:net';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { Admission } from '../admission/interfaces.js';
import type { Authorizer } from '../authz/authorizer.js';
import type { Handler as HttpHandler, HttpRequest, HttpResponse } from '../http/handler.js';
import type { Storage } from '../registry/rest.js';
import { withBody, withRequestInfo, withUser } from '../request/context.js';
import { requestInfoOf } from '../request/request-info.js';
import type { RequestInfo } from '../request/request-info.js';
import type { RequestScope } from './scope.js';

/** What a handler wrote: status, headers, body. */
export interface Answer {
  code: number;
  headers: Record<string, number | string | readonly string[]>;
  body: Buffer;
  /** The body as JSON. */
  json<T = Record<string, unknown>>(): T;
}

/** A response that keeps what the handler writes. */
class MemoryResponse extends Writable implements HttpResponse {
  statusCode = 200;
  headersSent = false;
  readonly headers: Record<string, number | string | readonly string[]> = {};
  readonly chunks: Buffer[] = [];

  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.headersSent = true;
    this.chunks.push(Buffer.from(chunk));
    done();
  }
  setHeader(name: string, value: number | string | readonly string[]): this {
    this.headers[name.toLowerCase()] = value;
    return this;
  }
  getHeader(name: string): number | string | string[] | undefined {
    const v = this.headers[name.toLowerCase()];
    return Array.isArray(v) ? [...(v as string[])] : (v as number | string | undefined);
  }
  hasHeader(name: string): boolean {
    return name.toLowerCase() in this.headers;
  }
  removeHeader(name: string): void {
    delete this.headers[name.toLowerCase()];
  }
  writeHead(code: number, headers: Record<string, number | string | string[]> = {}): this {
    this.statusCode = code;
    for (const [k, v] of Object.entries(headers)) this.setHeader(k, v);
    this.headersSent = true;
    return this;
  }
  flushHeaders(): void {
    this.headersSent = true;
  }
}

/** A request as the chain hands it on after request info and authentication, and a response kept in memory. */
function kitExchange(o: { method: string; path: string; body?: unknown }): {
  req: HttpRequest;
  res: MemoryResponse;
  url: URL;
  info: RequestInfo;
  finished: Promise<void>;
} {
  const url = new URL(o.path, 'https://gateway.test');
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': 'kit/1.0',
  };
  const req = Object.assign(Readable.from([]), {
    method: o.method,
    url: url.pathname + url.search,
    headers,
    rawHeaders: Object.entries(headers).flat(),
    httpVersion: '1.1',
    socket: {} as Socket,
  }) as HttpRequest;
  const info = requestInfoOf(o.method, url);
  withRequestInfo(req, info);
  withUser(req, { name: 'tester', uid: '', groups: ['system:authenticated'], extra: {} });
  if (o.body !== undefined) withBody(req, Buffer.from(JSON.stringify(o.body)));
  const res = new MemoryResponse();
  const finished = new Promise<void>((resolve) => res.once('finish', resolve));
  return { req, res, url, info, finished };
}

function answerOf(res: MemoryResponse): Answer {
  const body = Buffer.concat(res.chunks);
  return {
    code: res.statusCode,
    headers: res.headers,
    body,
    json: <T>() => JSON.parse(body.toString('utf8')) as T,
  };
}

/**
 * Runs a handler on `method path` with a JSON body, as user `tester` (user-agent `kit/1.0`),
 * answering JSON; resolves with what it wrote, rejects with what it threw.
 */
export async function runHandler<R extends Storage>(
  handler: (scope: RequestScope<R>, res: HttpResponse) => Promise<void>,
  o: {
    def: ResourceDefinition;
    rest: R;
    method: string;
    path: string;
    body?: unknown;
    admission?: Admission;
    authorizer?: Authorizer;
  }
): Promise<Answer> {
  const { req, res, url, info, finished } = kitExchange(o);
  await handler(
    {
      def: o.def,
      rest: o.rest,
      admission: o.admission,
      authorizer: o.authorizer,
      info,
      query: url.searchParams,
      req,
      maxWatchSeconds: 60,
    },
    res
  );
  await finished;
  return answerOf(res);
}

/**
 * Serves `method path` (JSON body) with an HTTP handler of the chain's end (the resource
 * routes, a filter), as runHandler does; resolves once the answer is complete.
 */
export async function serveRequest(
  handler: HttpHandler,
  o: { method: string; path: string; body?: unknown }
): Promise<Answer> {
  const { req, res, finished } = kitExchange(o);
  await handler(req, res);
  await finished;
  return answerOf(res);
}
