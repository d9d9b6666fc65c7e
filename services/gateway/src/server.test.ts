// The serving port with both protocols, against real gateways (etcd, NATS, TLS with client
// certificates): HTTP/2 negotiated by ALPN multiplexes a watch, a list and writes over one
// connection; RST_STREAM ends a watch and frees it; errors, warnings, chunked lists, binary
// watch frames and the body limit behave the same over HTTP/1.1.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect, constants } from 'node:http2';
import type { ClientHttp2Session, ClientHttp2Stream, IncomingHttpHeaders } from 'node:http2';
import { request } from 'node:https';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { startSuite } from '@orch/testing';
import { createLogger } from '@orch/component-base/logs';
import { startInBackground } from '@orch/component-base/run';
import { newGatewayConfig } from './config.js';
import { gatewayOptions } from './options.js';
import { suiteGatewayArgs } from './suite-gateway-args.js';
import { GatewayServer } from './server.js';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'protocols';
const base = `/api/v1/namespaces/${ns}/configmaps`;
const cm = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { a: '1' },
  ...extra,
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json: () => any;
}

/** The TLS options of the admin user (client certificate) against the suite's CA. */
function adminTls() {
  const admin = suite.pki.file('admin');
  return {
    ca: readFileSync(suite.pki.caFile),
    cert: readFileSync(admin.certFile),
    key: readFileSync(admin.keyFile),
  };
}

/** A streaming response, over either protocol: its chunks as they come, its end. */
interface Streamed {
  status: Promise<number>;
  headers: Promise<Record<string, string | string[] | undefined>>;
  chunks: Buffer[];
  ended: Promise<void>;
  /** Lines of a JSON stream received so far. */
  lines(): any[];
  /** HTTP/2: RST_STREAM (CANCEL); HTTP/1.1: the socket closed. */
  cancel(): void;
}

function streamed(
  onResponse: (cb: (status: number, headers: Record<string, any>) => void) => void,
  source: NodeJS.EventEmitter,
  cancel: () => void
): Streamed {
  const chunks: Buffer[] = [];
  let resolveHead: (v: [number, Record<string, any>]) => void = () => undefined;
  const head = new Promise<[number, Record<string, any>]>((r) => (resolveHead = r));
  onResponse((s, h) => resolveHead([s, h]));
  const ended = new Promise<void>((resolve) => {
    source.on('data', (c: Buffer) => chunks.push(c));
    source.on('end', () => resolve());
    source.on('close', () => resolve());
    source.on('error', () => resolve());
  });
  return {
    status: head.then(([s]) => s),
    headers: head.then(([, h]) => h),
    chunks,
    ended,
    lines: () =>
      Buffer.concat(chunks)
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l)),
    cancel,
  };
}

/** One HTTP/2 connection to a gateway; requests are streams on it. */
class H2 {
  readonly session: ClientHttp2Session;
  constructor(url: string) {
    this.session = connect(url, adminTls());
  }
  open(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const stream = this.session.request({
      ':method': method,
      ':path': path,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    });
    if (body === undefined) stream.end();
    else stream.end(typeof body === 'string' ? body : JSON.stringify(body));
    return stream;
  }
  watch(path: string, headers: Record<string, string> = {}): Streamed {
    const stream = this.open('GET', path, undefined, headers);
    return streamed(
      (cb) =>
        stream.once('response', (h: IncomingHttpHeaders) => cb(Number(h[':status']), h as any)),
      stream,
      () => stream.close(constants.NGHTTP2_CANCEL)
    );
  }
  send(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {}
  ): Promise<Answer> {
    const stream: ClientHttp2Stream = this.open(method, path, body, headers);
    return collect(
      streamed(
        (cb) =>
          stream.once('response', (h: IncomingHttpHeaders) => cb(Number(h[':status']), h as any)),
        stream,
        () => stream.close(constants.NGHTTP2_CANCEL)
      )
    );
  }
  /**
   * Teardown: the session destroyed. (A graceful close waits for every stream's 'close', which
   * Node's client sometimes never emits for a stream it reset itself while data was in flight.)
   */
  close(): void {
    this.session.destroy();
  }
}

async function collect(s: Streamed): Promise<Answer> {
  const [status, headers] = await Promise.all([s.status, s.headers]);
  await s.ended;
  const body = Buffer.concat(s.chunks);
  return { status, headers, body, json: () => JSON.parse(body.toString('utf8')) };
}

/** HTTP/1.1 (node:https offers no ALPN, so the server's fallback serves it). */
function h1Watch(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: unknown,
  url = suite.gateways[0]!
): Streamed & { req: ClientRequest; version: Promise<string> } {
  let res: IncomingMessage | undefined;
  let onRes: (r: IncomingMessage) => void = () => undefined;
  const gotRes = new Promise<IncomingMessage>((r) => (onRes = r));
  const req = request(
    new URL(path, url),
    {
      ...adminTls(),
      method,
      agent: false,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
    },
    (r) => {
      res = r;
      onRes(r);
    }
  );
  req.on('error', () => undefined);
  req.end(body === undefined ? undefined : JSON.stringify(body));
  const emitter = new EventEmitter();
  void gotRes.then((r) => {
    r.on('data', (c: Buffer) => emitter.emit('data', c));
    r.on('end', () => emitter.emit('end'));
    r.on('close', () => emitter.emit('close'));
    r.on('error', () => emitter.emit('close'));
  });
  req.on('close', () => emitter.emit('close'));
  const s = streamed(
    (cb) => void gotRes.then((r) => cb(r.statusCode ?? 0, r.headers)),
    emitter,
    () => req.destroy()
  );
  return { ...s, req, version: gotRes.then(() => res!.httpVersion) };
}

async function h1Send(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {}
): Promise<Answer & { version: string }> {
  const s = h1Watch(path, headers, method, body);
  const answer = await collect(s);
  return { ...answer, version: await s.version };
}

/** A figure from the gateway's /metrics (0 when the series is absent). */
async function metric(series: string): Promise<number> {
  const r = await suite.request(0, 'GET', '/metrics', undefined, { Accept: 'text/plain' });
  const line = r.text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

async function until(cond: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 15_000;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const connectionHeaders = ['connection', 'transfer-encoding', 'keep-alive', 'upgrade'];
const openWatches = 'orch_gateway_open_watches';
const h2Requests = 'orch_gateway_requests_by_protocol_total{protocol="HTTP/2.0"}';
const h1Requests = 'orch_gateway_requests_by_protocol_total{protocol="HTTP/1.1"}';

before(async () => {
  suite = await startSuite({ gateways: 1 });
  await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  for (const n of ['c0', 'c1', 'c2']) await suite.request(0, 'POST', base, cm(n));
});

after(async () => {
  await suite.stop();
});

describe('HTTP/2', () => {
  let h2: H2;
  before(() => {
    h2 = new H2(suite.gateways[0]!);
  });
  after(() => h2.close());

  test('is negotiated by ALPN and counted by protocol', async () => {
    const before = await metric(h2Requests);
    const r = await h2.send('GET', `${base}/c0`);
    assert.equal(r.status, 200);
    assert.equal(h2.session.alpnProtocol, 'h2');
    assert.equal(r.json().metadata.name, 'c0');
    await until(async () => (await metric(h2Requests)) > before, 'an HTTP/2.0 request counted');
  });

  test('a watch, a list and a create multiplexed over one connection', async () => {
    const w = h2.watch(`${base}?watch=1`);
    assert.equal(await w.status, 200);
    assert.equal((await w.headers)['content-type'], 'application/json');
    await until(() => w.lines().length >= 3, 'the synthetic ADDED events');
    const list = await h2.send('GET', base);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.json().items.map((i: any) => i.metadata.name),
      ['c0', 'c1', 'c2']
    );
    const created = await h2.send('POST', base, cm('h2-made'));
    assert.equal(created.status, 201);
    await until(() => w.lines().length >= 4, 'the live ADDED event');
    assert.deepEqual(
      w.lines().map((e) => `${e.type} ${e.object.metadata.name}`),
      ['ADDED c0', 'ADDED c1', 'ADDED c2', 'ADDED h2-made']
    );
    // All of it on the one session.
    assert.equal(h2.session.closed, false);
    w.cancel();
    await w.ended;
  });

  test('RST_STREAM ends the watch and frees it: the open-watch gauge goes back down', async () => {
    const idle = await metric(openWatches);
    const w = h2.watch(`${base}?watch=1&resourceVersion=0`);
    assert.equal(await w.status, 200);
    await until(async () => (await metric(openWatches)) === idle + 1, 'the watch counted open');
    w.cancel();
    await w.ended;
    await until(async () => (await metric(openWatches)) === idle, 'the watch freed');
    // The connection stays usable after the reset.
    assert.equal((await h2.send('GET', `${base}/c1`)).status, 200);
  });

  test('an error is a Status with its code, without connection-specific headers', async () => {
    const r = await h2.send('GET', `${base}/missing`);
    assert.equal(r.status, 404);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(r.json().kind, 'Status');
    assert.equal(r.json().reason, 'NotFound');
    for (const h of connectionHeaders) assert.equal(r.headers[h], undefined, h);
    const notFound = await h2.send('GET', '/no/such/path');
    assert.equal(notFound.status, 404);
    assert.equal(notFound.json().reason, 'NotFound');
  });

  test('a Warning header reaches the client', async () => {
    const r = await h2.send('POST', `${base}?fieldValidation=Warn`, cm('warned', { bogus: 1 }));
    assert.equal(r.status, 201);
    assert.match(String(r.headers['warning']), /299 - "unknown field \\"bogus\\""/);
  });

  test('a chunked list pages with continue at one resourceVersion', async () => {
    const first = await h2.send('GET', `${base}?limit=2`);
    const page1 = first.json();
    assert.equal(page1.items.length, 2);
    assert.ok(page1.metadata.continue);
    const second = await h2.send(
      'GET',
      `${base}?limit=2&continue=${encodeURIComponent(page1.metadata.continue)}`
    );
    assert.equal(second.json().metadata.resourceVersion, page1.metadata.resourceVersion);
  });

  test('a binary watch sends length-prefixed frames', async () => {
    const w = h2.watch(`${base}?watch=1&resourceVersion=0`, {
      accept: 'application/vnd.orch.protobuf;stream=watch',
    });
    assert.equal(await w.status, 200);
    assert.equal((await w.headers)['content-type'], 'application/vnd.orch.protobuf;stream=watch');
    await until(() => Buffer.concat(w.chunks).length >= 4, 'a first frame');
    const bytes = Buffer.concat(w.chunks);
    const length = bytes.readUInt32BE(0);
    assert.ok(length > 0);
    await until(() => Buffer.concat(w.chunks).length >= 4 + length, 'the whole frame');
    w.cancel();
  });

  test('timeoutSeconds ends the watch stream', async () => {
    const w = h2.watch(`${base}?watch=1&resourceVersion=0&timeoutSeconds=1`);
    assert.equal(await w.status, 200);
    await w.ended;
    assert.ok(w.lines().length >= 3);
  });

  test('a body over --max-request-body-bytes is 413, and the upload is reset', async () => {
    const stream = h2.open('POST', base, cm('big', { data: { a: 'x'.repeat(3.5 * 1024 * 1024) } }));
    const chunks: Buffer[] = [];
    const status = new Promise<number>((r) =>
      stream.once('response', (h: IncomingHttpHeaders) => r(Number(h[':status'])))
    );
    stream.on('data', (c: Buffer) => chunks.push(c));
    await new Promise((r) => stream.once('end', r));
    assert.equal(await status, 413);
    assert.equal(JSON.parse(Buffer.concat(chunks).toString()).reason, 'RequestEntityTooLarge');
    // RST_STREAM from the server: the client has nothing more to send. (Node's client then
    // still holds the unsent bytes; they are dropped here.)
    await until(() => stream.closed, 'the stream reset by the server');
    stream.destroy();
    assert.equal((await h2.send('GET', `${base}/c0`)).status, 200);
  });

  test('a long list (20 MB, as a cluster-wide pod list) arrives whole, beside a watch', async () => {
    // A connection of its own, with client-go's window (Go's transport: 1 GiB per connection).
    const big = new H2(suite.gateways[0]!);
    await new Promise((r) => big.session.once('connect', r));
    big.session.setLocalWindowSize(2 ** 30);
    const bigNs = '/api/v1/namespaces/protocols-big/configmaps';
    await big.send('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'protocols-big' },
    });
    const value = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 20; i++) {
      const r = await big.send('POST', bigNs, cm(`big-${i}`, { data: { a: value } }));
      assert.equal(r.status, 201);
    }
    const w = big.watch(`${base}?watch=1&resourceVersion=0`);
    const [onH2, onH1] = await Promise.all([big.send('GET', bigNs), h1Send('GET', bigNs)]);
    for (const [protocol, r] of [
      ['HTTP/2', onH2],
      ['HTTP/1.1', onH1],
    ] as const) {
      assert.equal(r.status, 200, protocol);
      // a short body says whether the answer was cut (no closing brace) or held fewer items
      const tail = r.body
        .subarray(-120)
        .toString('utf8')
        .replace(/x{20,}/g, 'x…');
      assert.ok(
        r.body.length > 20 * 1024 * 1024,
        `${protocol}: ${r.body.length} bytes, ending ${tail}`
      );
      assert.equal(r.json().items.length, 20, protocol);
    }
    assert.equal(await w.status, 200);
    big.close();
  });

  test('the server advertises the streams and window of its flags (upstream defaults)', () => {
    assert.equal(h2.session.remoteSettings.maxConcurrentStreams, 100);
    assert.equal(h2.session.remoteSettings.initialWindowSize, 256 * 1024);
  });
});

describe('HTTP/1.1 on the same port', () => {
  test('is served to a client without ALPN and counted by protocol', async () => {
    const before = await metric(h1Requests);
    const r = await h1Send('GET', `${base}/c0`);
    assert.equal(r.status, 200);
    assert.equal(r.version, '1.1');
    await until(async () => (await metric(h1Requests)) > before, 'an HTTP/1.1 request counted');
  });

  test('a watch streams chunked JSON lines; closing the socket frees it', async () => {
    const idle = await metric(openWatches);
    const w = h1Watch(`${base}?watch=1`);
    assert.equal(await w.status, 200);
    assert.equal((await w.headers)['transfer-encoding'], 'chunked');
    await until(() => w.lines().length >= 3, 'the synthetic ADDED events');
    await until(async () => (await metric(openWatches)) === idle + 1, 'the watch counted open');
    await suite.request(0, 'POST', base, cm('h1-made'));
    await until(
      () => w.lines().some((e) => e.object.metadata.name === 'h1-made'),
      'the live ADDED event'
    );
    w.cancel();
    await w.ended;
    await until(async () => (await metric(openWatches)) === idle, 'the watch freed');
  });

  test('an error is the same Status', async () => {
    const r = await h1Send('GET', `${base}/missing`);
    assert.equal(r.status, 404);
    assert.equal(r.json().reason, 'NotFound');
  });

  test('a Warning header reaches the client', async () => {
    const r = await h1Send('POST', `${base}?fieldValidation=Warn`, cm('warned1', { bogus: 1 }));
    assert.equal(r.status, 201);
    assert.match(String(r.headers['warning']), /299 - "unknown field \\"bogus\\""/);
  });

  test('timeoutSeconds ends the watch stream', async () => {
    const w = h1Watch(`${base}?watch=1&resourceVersion=0&timeoutSeconds=1`);
    assert.equal(await w.status, 200);
    await w.ended;
    assert.ok(w.lines().length >= 3);
  });

  test('a body over --max-request-body-bytes is 413', async () => {
    const r = await h1Send('POST', base, cm('big', { data: { a: 'x'.repeat(3.5 * 1024 * 1024) } }));
    assert.equal(r.status, 413);
  });
});

describe('HTTP/2 idle timeout (upstream IdleTimeout)', () => {
  test('a session without streams gets GOAWAY; one with an open watch keeps its connection', async () => {
    const options = gatewayOptions([
      '--secure-port=0',
      ...suiteGatewayArgs(suite),
      '--authorization-mode=AlwaysAllow',
    ]);
    options.http2.idleTimeoutMs = 300;
    const gateway = await startInBackground(
      new GatewayServer(await newGatewayConfig(options, createLogger('test-gateway')))
    );
    const url = `https://127.0.0.1:${gateway.port}`;
    const idle = new H2(url);
    const watching = new H2(url);
    try {
      const idleGoaway = new Promise<number>((r) =>
        idle.session.once('goaway', (code: number) => r(code))
      );
      let watchingGoaway = false;
      watching.session.once('goaway', () => (watchingGoaway = true));
      assert.equal((await idle.send('GET', `${base}/c0`)).status, 200);
      const w = watching.watch(`${base}?watch=1`);
      assert.equal(await w.status, 200);
      // The idle session is told to go once its last stream has been closed for the timeout.
      assert.equal(await idleGoaway, constants.NGHTTP2_NO_ERROR);
      // The watching session is still open after the idle one went (both were idle as long).
      assert.equal(watchingGoaway, false);
      assert.equal((await watching.send('GET', `${base}/c0`)).status, 200);
      w.cancel();
    } finally {
      idle.session.destroy();
      watching.session.destroy();
      await gateway.stop();
    }
  });
});

describe('graceful shutdown', () => {
  test('HTTP/2 sessions get GOAWAY, open watches on both protocols end (not cut), the server stops', async () => {
    const options = gatewayOptions([
      '--secure-port=0',
      ...suiteGatewayArgs(suite),
      '--authorization-mode=AlwaysAllow',
    ]);
    const gateway = await startInBackground(
      new GatewayServer(await newGatewayConfig(options, createLogger('test-gateway')))
    );
    const url = `https://127.0.0.1:${gateway.port}`;
    const h2 = new H2(url);
    const goaway = new Promise<number>((r) => h2.session.once('goaway', (code: number) => r(code)));
    const h2Watch = h2.watch(`${base}?watch=1`);
    assert.equal(await h2Watch.status, 200);
    const h1 = h1Watch(`${base}?watch=1`, {}, 'GET', undefined, url);
    assert.equal(await h1.status, 200);
    await gateway.stop();
    assert.equal(await goaway, constants.NGHTTP2_NO_ERROR);
    await h2Watch.ended;
    await h1.ended;
    assert.ok(h2Watch.lines().length >= 3, 'the watch had its events before it ended');
    // The watch ended as a timed-out one does (its last chunk sent), not by a cut connection.
    const h1Res = (h1.req as ClientRequest & { res?: IncomingMessage }).res;
    assert.equal(h1Res?.complete, true, 'the HTTP/1.1 watch response is complete');
  });
});
