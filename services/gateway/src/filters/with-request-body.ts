// Reads the request body whole, up to --max-request-body-bytes, before routing (upstream's
// limitedReadBody, done once for every handler): a larger body is 413 and is not read further.
import { constants } from 'node:http2';
import type { Http2ServerRequest } from 'node:http2';
import { newRequestEntityTooLarge } from '@orch/apimachinery/errors';
import type { Handler, HttpRequest, HttpResponse } from '../http/handler.js';
import { withBody } from '../request/context.js';

const empty = Buffer.alloc(0);

const tooLarge = (limit: number) =>
  newRequestEntityTooLarge(`the request body is larger than the ${limit} bytes allowed`);

/** True when the request has no body at all: nothing announced (HTTP/1.1), or END_STREAM on its headers (HTTP/2). */
function hasNoBody(req: HttpRequest): boolean {
  const stream = (req as Partial<Http2ServerRequest>).stream;
  if (stream) return stream.endAfterHeaders;
  return (
    req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined
  );
}

/** The body's bytes; rejects with 413 past `limit`, or with the stream's error. */
export function readBody(req: HttpRequest, limit: number): Promise<Buffer> {
  if (hasNoBody(req)) return Promise.resolve(empty);
  const announced = Number(req.headers['content-length']);
  if (announced > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err?: unknown): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', done);
      req.off('close', onClose);
      if (err === undefined)
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      else reject(err);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        // Not read further: the response ends the exchange (HTTP/1.1 closes the connection).
        req.pause();
        done(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => done();
    const onClose = (): void => {
      if (!req.readableEnded)
        done(new Error('the client closed the request before its body ended'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', done);
    req.on('close', onClose);
  });
}

/**
 * A body left unread ends with the answer, as Go's servers do: HTTP/2 resets the stream
 * (RST_STREAM NO_ERROR, so the client stops sending), HTTP/1.1 closes the connection.
 */
function refuseUpload(req: HttpRequest, res: HttpResponse): void {
  const stream = (req as Partial<Http2ServerRequest>).stream;
  // The stream's own 'finish' (the answer written): the response's waits for the stream's close.
  if (stream) stream.once('finish', () => stream.close(constants.NGHTTP2_NO_ERROR));
  else if (!res.headersSent) res.setHeader('Connection', 'close');
}

/** The chain's stage that reads the body for the handlers (bodyFrom). */
export const withRequestBody =
  (next: Handler, maxBytes: number): Handler =>
  async (req, res) => {
    let body: Buffer;
    try {
      body = await readBody(req, maxBytes);
    } catch (err) {
      refuseUpload(req, res);
      throw err;
    }
    withBody(req, body);
    return next(req, res);
  };
