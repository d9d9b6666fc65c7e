// The non-resource mux by method: GET routes answer HEAD too, PUT routes only PUT, anything
// else (or a method no route of the path takes) goes to the fallback.
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { requestListener } from './handler.js';
import { PathMux } from './path-mux.js';

describe('PathMux', () => {
  let port = 0;
  const server = createServer();

  before(async () => {
    const mux = new PathMux();
    mux.get('/debug/flags/v', (_req, res) => void res.end('get'));
    mux.put('/debug/flags/v', (_req, res) => void res.end('put'));
    mux.get('/only-get', (_req, res) => void res.end('get'));
    server.on(
      'request',
      requestListener(
        mux.handler((_req, res) => {
          res.statusCode = 404;
          res.end('fallback');
        })
      )
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });

  after(() => server.close());

  const call = (method: string, path: string): Promise<[number, string]> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve([res.statusCode ?? 0, body]));
      });
      req.on('error', reject);
      req.end();
    });

  const rows: [string, string, string, [number, string]][] = [
    ['GET', '/debug/flags/v', 'a GET route', [200, 'get']],
    ['HEAD', '/debug/flags/v', 'HEAD takes the GET route', [200, '']],
    ['PUT', '/debug/flags/v', 'a PUT route', [200, 'put']],
    ['PUT', '/only-get', 'PUT where only GET is routed', [404, 'fallback']],
    ['POST', '/debug/flags/v', 'a method no route takes', [404, 'fallback']],
  ];
  for (const [method, path, name, want] of rows) {
    it(`${method} ${path}: ${name}`, async () => {
      assert.deepEqual(await call(method, path), want);
    });
  }
});
