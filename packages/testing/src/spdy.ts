// A SPDY/3.1 session, the server's side, as much of it as the test node agent needs to serve
// upstream's stream protocols to kubectl, whose SPDY is moby/spdystream (under client-go's
// httpstream/spdy): streams the client opens (SYN_STREAM), each answered with an empty SYN_REPLY
// as the kubelet's connection answers it; their data and half-closes (FIN); RST_STREAM; PING
// answered; GOAWAY. Header blocks are zlib-compressed with the protocol's dictionary, one zlib
// stream per direction for the session's life. Flow control is not enforced (spdystream neither
// sends nor reads WINDOW_UPDATE). Frame layouts: the SPDY/3.1 draft, section 2.
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { Duplex } from 'node:stream';
import zlib from 'node:zlib';

const version = 3;
const frame = {
  synStream: 1,
  synReply: 2,
  rstStream: 3,
  settings: 4,
  ping: 6,
  goAway: 7,
  headers: 8,
  windowUpdate: 9,
} as const;
const flagFin = 0x01;
/** RST_STREAM status codes used here. */
const rst = { protocolError: 1, cancel: 5 } as const;
/** The largest DATA frame this side writes. */
const maxData = 16 * 1024;

/** The SPDY/3 header dictionary: length-prefixed words, then a run of text (draft 3, 2.6.10.1). */
export const spdy3Dictionary: Buffer = (() => {
  const words = [
    'options', 'head', 'post', 'put', 'delete', 'trace', 'accept', 'accept-charset',
    'accept-encoding', 'accept-language', 'accept-ranges', 'age', 'allow', 'authorization',
    'cache-control', 'connection', 'content-base', 'content-encoding', 'content-language',
    'content-length', 'content-location', 'content-md5', 'content-range', 'content-type', 'date',
    'etag', 'expect', 'expires', 'from', 'host', 'if-match', 'if-modified-since', 'if-none-match',
    'if-range', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'pragma',
    'proxy-authenticate', 'proxy-authorization', 'range', 'referer', 'retry-after', 'server', 'te',
    'trailer', 'transfer-encoding', 'upgrade', 'user-agent', 'vary', 'via', 'warning',
    'www-authenticate', 'method', 'get', 'status', '200 OK', 'version', 'HTTP/1.1', 'url',
    'public', 'set-cookie', 'keep-alive', 'origin',
  ]; // prettier-ignore
  const tail =
    '100101201202205206300302303304305306307402405406407408409410411412413414415416417502504505' +
    '203 Non-Authoritative Information204 No Content301 Moved Permanently400 Bad Request' +
    '401 Unauthorized403 Forbidden404 Not Found500 Internal Server Error501 Not Implemented' +
    '503 Service UnavailableJan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 ' +
    'Mon, Tue, Wed, Thu, Fri, Sat, Sun, GMTchunked,text/html,image/png,image/jpg,image/gif,' +
    'application/xml,application/xhtml+xml,text/plain,text/javascript,publicprivatemax-age=' +
    'gzip,deflate,sdchcharset=utf-8charset=iso-8859-1,utf-,*,enq=0.';
  const parts = words.flatMap((w) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(w.length);
    return [len, Buffer.from(w, 'latin1')];
  });
  return Buffer.concat([...parts, Buffer.from(tail, 'latin1')]);
})();

/** Runs `work` on a zlib stream and collects what one Z_SYNC_FLUSH gives back. */
function flushThrough(z: zlib.Deflate | zlib.Inflate, input: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const collect = (c: Buffer): void => void out.push(c);
    const failed = (err: Error): void => {
      z.off('data', collect);
      reject(err);
    };
    z.on('data', collect);
    z.once('error', failed);
    z.write(input);
    z.flush(zlib.constants.Z_SYNC_FLUSH, () => {
      z.off('data', collect);
      z.off('error', failed);
      resolve(Buffer.concat(out));
    });
  });
}

/** A header block: a count, then length-prefixed names and values (values may hold NULs). */
function encodeHeaderBlock(headers: Record<string, string>): Buffer {
  const entries = Object.entries(headers);
  const parts: Buffer[] = [u32(entries.length)];
  for (const [name, value] of entries) {
    const n = Buffer.from(name.toLowerCase(), 'utf8');
    const v = Buffer.from(value, 'utf8');
    parts.push(u32(n.length), n, u32(v.length), v);
  }
  return Buffer.concat(parts);
}

function decodeHeaderBlock(block: Buffer): Record<string, string> {
  const headers: Record<string, string> = {};
  let at = 4;
  const count = block.readUInt32BE(0);
  const next = (): string => {
    const len = block.readUInt32BE(at);
    const s = block.subarray(at + 4, at + 4 + len).toString('utf8');
    at += 4 + len;
    return s;
  };
  for (let i = 0; i < count; i++) {
    const name = next();
    headers[name] = next();
  }
  return headers;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

function controlFrame(type: number, flags: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8000 | version, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(((flags & 0xff) << 24) | payload.length, 4);
  return Buffer.concat([head, payload]);
}

function dataFrame(id: number, flags: number, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(id & 0x7fffffff, 0);
  head.writeUInt32BE(((flags & 0xff) << 24) | data.length, 4);
  return Buffer.concat([head, data]);
}

/** One stream the client opened: readable is what the client sends, writable goes back to it. */
export class SpdyStream extends Duplex {
  #finSent = false;
  #finReceived = false;

  constructor(
    readonly id: number,
    readonly headers: Record<string, string>,
    private readonly session: SpdySession
  ) {
    super();
  }

  override _read(): void {}

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error) => void): void {
    for (let at = 0; at < chunk.length; at += maxData)
      this.session.send(dataFrame(this.id, 0, chunk.subarray(at, at + maxData)));
    done();
  }

  override _final(done: (err?: Error) => void): void {
    this.#finSent = true;
    this.session.send(dataFrame(this.id, flagFin, Buffer.alloc(0)));
    this.#closeIfDone();
    done();
  }

  override _destroy(err: Error | null, done: (err: Error | null) => void): void {
    if (!this.#finSent || !this.#finReceived) this.session.reset(this.id, rst.cancel);
    this.session.forget(this.id);
    done(err);
  }

  /** Data the client sent on this stream; `fin` its half-close. */
  received(data: Buffer, fin: boolean): void {
    if (data.length > 0) this.push(data);
    if (fin) {
      this.#finReceived = true;
      this.push(null);
      this.#closeIfDone();
    }
  }

  #closeIfDone(): void {
    if (this.#finSent && this.#finReceived) {
      this.session.forget(this.id);
      this.destroy();
    }
  }
}

/**
 * The server's side of a SPDY/3.1 connection. 'stream' is emitted for each stream the client
 * opens, after its SYN_REPLY is queued; 'close' when the connection ends.
 */
export class SpdySession extends EventEmitter<{ stream: [SpdyStream]; close: [] }> {
  readonly #socket: Duplex;
  readonly #streams = new Map<number, SpdyStream>();
  readonly #inflate = zlib.createInflate({ dictionary: spdy3Dictionary });
  readonly #deflate = zlib.createDeflate({ dictionary: spdy3Dictionary });
  /** Frames leave in this order (a SYN_REPLY waits for its compression). */
  #out: Promise<void> = Promise.resolve();
  /** Frames are handled in this order (a SYN_STREAM waits for its headers' decompression). */
  #in: Promise<void> = Promise.resolve();
  #buffered = Buffer.alloc(0);
  #closed = false;

  constructor(socket: Duplex) {
    super();
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => this.#read(chunk));
    socket.on('error', () => socket.destroy());
    socket.once('close', () => this.#end());
  }

  /** Queues a frame (or one being made) behind those already queued. */
  send(f: Buffer | Promise<Buffer>): void {
    this.#out = this.#out.then(async () => {
      const bytes = await f;
      if (!this.#closed) this.#socket.write(bytes);
    });
    this.#out.catch(() => this.#socket.destroy());
  }

  reset(id: number, status: number): void {
    this.send(controlFrame(frame.rstStream, 0, Buffer.concat([u32(id), u32(status)])));
  }

  forget(id: number): void {
    this.#streams.delete(id);
  }

  /** Ends the session: GOAWAY, then the connection. */
  close(): void {
    const last = Math.max(0, ...this.#streams.keys());
    this.send(controlFrame(frame.goAway, 0, Buffer.concat([u32(last), u32(0)])));
    this.#out = this.#out.then(() => void this.#socket.end());
  }

  #end(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const s of this.#streams.values()) s.destroy();
    this.#streams.clear();
    this.#inflate.destroy();
    this.#deflate.destroy();
    this.emit('close');
  }

  #read(chunk: Buffer): void {
    this.#buffered = Buffer.concat([this.#buffered, chunk]);
    while (this.#buffered.length >= 8) {
      const length = this.#buffered.readUInt32BE(4) & 0xffffff;
      if (this.#buffered.length < 8 + length) return;
      const f = this.#buffered.subarray(0, 8 + length);
      this.#buffered = this.#buffered.subarray(8 + length);
      this.#in = this.#in.then(() => this.#handle(f));
      this.#in.catch(() => this.#socket.destroy());
    }
  }

  async #handle(f: Buffer): Promise<void> {
    const flags = f[4]!;
    const payload = f.subarray(8);
    if ((f[0]! & 0x80) === 0) {
      const id = f.readUInt32BE(0) & 0x7fffffff;
      const stream = this.#streams.get(id);
      if (stream) stream.received(payload, (flags & flagFin) !== 0);
      else this.reset(id, rst.protocolError);
      return;
    }
    const type = f.readUInt16BE(2);
    if (type === frame.synStream) {
      const id = payload.readUInt32BE(0) & 0x7fffffff;
      const headers = decodeHeaderBlock(await flushThrough(this.#inflate, payload.subarray(10)));
      const stream = new SpdyStream(id, headers, this);
      this.#streams.set(id, stream);
      this.send(
        flushThrough(this.#deflate, encodeHeaderBlock({})).then((block) =>
          controlFrame(frame.synReply, 0, Buffer.concat([u32(id), block]))
        )
      );
      this.emit('stream', stream);
      if ((flags & flagFin) !== 0) stream.received(Buffer.alloc(0), true);
    } else if (type === frame.headers) {
      await flushThrough(this.#inflate, payload.subarray(4)); // keeps the zlib stream in step
    } else if (type === frame.rstStream) {
      const id = payload.readUInt32BE(0) & 0x7fffffff;
      const stream = this.#streams.get(id);
      this.forget(id);
      stream?.destroy();
    } else if (type === frame.ping) {
      this.send(controlFrame(frame.ping, 0, payload.subarray(0, 4)));
    } else if (type === frame.goAway) {
      this.#socket.end();
    }
    // SETTINGS and WINDOW_UPDATE: nothing to do without flow control.
  }
}

/** Answers an upgrade request with a plain-text refusal and closes the connection. */
export function refuseUpgrade(socket: Duplex, code: number, text: string, body = text): void {
  socket.end(
    `HTTP/1.1 ${code} ${text}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${body}\n`
  );
}

/**
 * The kubelet's httpstream.Handshake for a SPDY/3.1 upgrade: the first of `supported` (in the
 * server's order) that the client's X-Stream-Protocol-Version list names is answered in the 101,
 * and the session begins; none is a 403 in the kubelet's words.
 */
export function acceptSpdyUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  supported: readonly string[]
): SpdySession | undefined {
  const offered = String(req.headers['x-stream-protocol-version'] ?? '')
    .split(',')
    .map((p) => p.trim());
  const chosen = supported.find((p) => offered.includes(p));
  if (!chosen) {
    refuseUpgrade(
      socket,
      403,
      'Forbidden',
      `unable to upgrade: unable to negotiate protocol: client supports [${offered.join(' ')}], server supports [${supported.join(' ')}]`
    );
    return undefined;
  }
  socket.write(
    'HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n' +
      `X-Stream-Protocol-Version: ${chosen}\r\n\r\n`
  );
  if (head.length > 0) socket.unshift(head);
  return new SpdySession(socket);
}
