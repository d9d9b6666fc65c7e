// The body stage over HTTP/1.1 with Node's server and client (no TLS, no other stage): a body
// over the limit is answered 413 and its rest read and dropped while it stays under twice the
// limit, so the client finishes its upload and reuses the connection; past that (counted, or
// announced) the server ends the connection after the answer, which the client reads first.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, createServer, request } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bodyFrom } from '../request/context.js';
import { withRequestBody } from './with-request-body.js';

const limit = 64 * 1024;
let server: Server;
let port: number;

before(async () => {
  const stage = withRequestBody((req, res) => {
    res.end(`read ${bodyFrom(req)?.length}`);
  }, limit);
  server = createServer((req, res) => {
    Promise.resolve(stage(req, res)).catch(() => {
      res.statusCode = 413;
      res.end('too large');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

after(() => new Promise<void>((r) => server.close(() => r())));

interface Sent {
  status: number;
  text: string;
  /** The request's own error (the upload cut), if any. */
  uploadError?: string;
  reused: boolean;
  connection: string | undefined;
}

/** POSTs `size` bytes, chunked unless `announce`, written in 16 KiB pieces. */
function post(agent: Agent, size: number, announce = false): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      agent,
      headers: announce ? { 'Content-Length': String(size) } : {},
    });
    let uploadError: string | undefined;
    req.on('error', (err) => (uploadError = err.message));
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        // the upload's outcome comes after the answer: wait for the request to finish or fail
        setTimeout(
          () =>
            resolve({
              status: res.statusCode ?? 0,
              text: Buffer.concat(chunks).toString(),
              reused: req.reusedSocket,
              connection: res.headers.connection,
              ...(uploadError ? { uploadError } : {}),
            }),
          700
        )
      );
      res.on('error', reject);
    });
    const piece = Buffer.alloc(16 * 1024, 'x');
    let left = size;
    const write = (): void => {
      while (left > 0) {
        const n = Math.min(left, piece.length);
        left -= n;
        if (!req.write(piece.subarray(0, n))) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

test('a body under the limit is read whole', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const r = await post(agent, limit);
  assert.equal(r.status, 200);
  assert.equal(r.text, `read ${limit}`);
  agent.destroy();
});

test('a chunked body up to twice the limit: 413, the upload finishes, the connection is reused', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const big = await post(agent, limit * 1.9);
  assert.equal(big.status, 413);
  assert.equal(big.text, 'too large');
  assert.equal(big.uploadError, undefined);
  const next = await post(agent, 10);
  assert.equal(next.status, 200);
  assert.equal(next.text, 'read 10');
  assert.equal(next.reused, true, 'the same connection');
  agent.destroy();
});

test('an announced body up to twice the limit: 413 before reading, the rest dropped, reused', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const big = await post(agent, limit * 2, true);
  assert.equal(big.status, 413);
  assert.equal(big.uploadError, undefined);
  const next = await post(agent, 10, true);
  assert.equal(next.status, 200);
  assert.equal(next.reused, true, 'the same connection');
  agent.destroy();
});

for (const announce of [false, true]) {
  test(`a${announce ? 'n announced' : ' chunked'} body over twice the limit: 413 read, then the connection ended`, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const big = await post(agent, limit * 8, announce);
    assert.equal(big.status, 413);
    assert.equal(big.text, 'too large');
    // Announced: said in the answer; counted: the bound is crossed after the answer.
    assert.equal(big.connection, announce ? 'close' : 'keep-alive');
    const next = await post(agent, 10);
    assert.equal(next.status, 200);
    assert.equal(next.reused, false, 'a new connection: the server ended the first');
    agent.destroy();
  });
}
