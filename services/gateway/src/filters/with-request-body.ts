// Reads the request body whole, up to --max-request-body-bytes, before routing (upstream's
// limitedReadBody, done once for every handler): a larger body is 413, and its rest is not kept.
import { constants } from 'node:http2';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, ServerHttp2Stream } from 'node:http2';
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
        // Not kept: the rest is discarded or cut once the answer is out (refuseUpload).
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
 * How long a refused upload is still read after its answer before the connection or stream is
 * cut (Go's rstAvoidanceDelay): the client reads the answer before any reset reaches it.
 */
const lingerMs = 500;
/** How long the rest of a refused HTTP/1.1 upload may take to arrive while it is discarded. */
const drainMs = 10_000;

/**
 * HTTP/2, as Go's server: the answer, then RST_STREAM NO_ERROR so the client stops sending. The
 * reset waits until the answer's END_STREAM has left (the stream's local side closed): submitted
 * earlier, nghttp2 sends it ahead of the queued DATA and the client loses the answer's body.
 */
function resetAfterAnswer(stream: ServerHttp2Stream): void {
  stream.once('finish', () => {
    const deadline = Date.now() + lingerMs;
    const reset = (): void => {
      if (stream.destroyed || stream.closed) return;
      if (stream.state.localClose || Date.now() >= deadline)
        stream.close(constants.NGHTTP2_NO_ERROR);
      else setTimeout(reset, 1);
    };
    reset();
  });
}

/**
 * HTTP/1.1: the rest of the upload is read and discarded, so the client can finish writing and
 * read the answer, and the connection stays usable: a body of up to twice the limit (the limit
 * more than a body that is kept). A longer one (announced, or counted past that while discarded),
 * or one whose rest takes longer than drainMs, ends the connection as Go's server ends it: after
 * the answer its write side first, then the socket after lingerMs of further discarding. Closing
 * a socket with unread bytes at once sends a TCP reset, which drops the answer from the client's
 * receive buffer (kubectl's `write: broken pipe`).
 */
function discardUpload(req: IncomingMessage, res: ServerResponse, maxBytes: number): void {
  const socket = req.socket;
  const announced = Number(req.headers['content-length']);
  let discarded = 0;
  let closing = false;
  const linger = (): void => {
    socket.end();
    setTimeout(() => socket.destroy(), lingerMs).unref();
  };
  const close = (): void => {
    if (closing) return;
    closing = true;
    clearTimeout(timer);
    if (!res.headersSent) {
      // Said in the answer, so that the client does not reuse the connection; Node then ends
      // the connection once the answer is written (destroySoon: end and destroy at once),
      // lingering here instead.
      res.setHeader('Connection', 'close');
      socket.destroySoon = linger;
      return;
    }
    // Answered already (the bound crossed later): the client, still writing, does not reuse it.
    const afterAnswer = (): void =>
      void setImmediate(() => {
        // The whole body arrived after all (the same read as the chunk that crossed the bound).
        if (!req.complete) linger();
      });
    if (res.writableFinished) afterAnswer();
    else res.once('finish', afterAnswer);
  };
  const timer = setTimeout(close, drainMs).unref();
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > maxBytes && !(announced <= 2 * maxBytes)) close();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.resume();
  if (announced > 2 * maxBytes) close();
}

/** A body left unread ends with the answer without cutting it off (see each protocol's). */
function refuseUpload(req: HttpRequest, res: HttpResponse, maxBytes: number): void {
  const stream = (req as Partial<Http2ServerRequest>).stream;
  if (stream) resetAfterAnswer(stream);
  else discardUpload(req as IncomingMessage, res as ServerResponse, maxBytes);
}

/** The chain's stage that reads the body for the handlers (bodyFrom). */
export const withRequestBody =
  (next: Handler, maxBytes: number): Handler =>
  async (req, res) => {
    let body: Buffer;
    try {
      body = await readBody(req, maxBytes);
    } catch (err) {
      refuseUpload(req, res, maxBytes);
      throw err;
    }
    withBody(req, body);
    return next(req, res);
  };
