// The writes' transactions (KV.Txn) as gRPC calls on one HTTP/2 session of node:http2, beside the
// etcd3 client that does everything else (reads, watches, leases, elections, compaction).
//
// Why: every create, update and delete is one Txn, and a grpc-js unary call wraps it in layers a
// single known method does not need (resolving, load-balancing and retrying calls, interceptors,
// metadata, a stack trace per call). Measured in `make bench`, those layers and the garbage
// they leave were a quarter of storage's CPU per create; a Txn sent here costs storage 20–25%
// less per create, about 6% of the suite's CPU per create.
//
// What it keeps of etcd3's behaviour: a call it cannot make or finish goes through etcd3 instead,
// with etcd3's retries and circuit breakers: no usable session (connecting failed, the endpoint
// went away less than a second ago), a connection lost before the answer, or a status etcd3
// counts as recoverable (unavailable, deadline exceeded), which etcd3 retries the same way. Any
// other status is turned into the error etcd3 would have thrown for it (castGrpcError), so the
// store interprets it the same either way. Each call has the deadline etcd3's calls have.
import http2 from 'node:http2';
import { createRequire } from 'node:module';
import { status as grpcStatus } from '@grpc/grpc-js';
import { castGrpcError, isRecoverableError } from 'etcd3';
import type { Etcd3 } from 'etcd3';
import protobuf from 'protobufjs';

type TxnRequest = Parameters<Etcd3['kv']['txn']>[0];
type TxnResponse = Awaited<ReturnType<Etcd3['kv']['txn']>>;

const rpc = new protobuf.Root().loadSync(
  createRequire(import.meta.url).resolve('etcd3/proto/rpc.proto'),
  { keepCase: true }
);
const txnRequest = rpc.lookupType('etcdserverpb.TxnRequest');
const txnResponse = rpc.lookupType('etcdserverpb.TxnResponse');
/** The shapes etcd3 answers in (proto-loader's): int64 as strings, enums by name, repeated always there. */
const asEtcd3 = { longs: String, enums: String, arrays: true, defaults: true } as const;

/** The error grpc-js would have given etcd3 for this status, cast as etcd3 casts it. */
function statusError(code: number, details: string): Error {
  const err = Object.assign(new Error(`${code} ${grpcStatus[code] ?? 'UNKNOWN'}: ${details}`), {
    code,
    details,
  });
  return castGrpcError(err);
}

/** Thrown inside: the call goes through etcd3 instead. */
class ThroughEtcd3 extends Error {}

export interface TxnClientOptions {
  /** etcd's client URLs (`http://host:port`), taken in turn when one fails. */
  endpoints: readonly string[];
  /** Each call's deadline (etcd3's calls have the same). */
  timeoutMs: number;
  /** How long an endpoint that failed is left to etcd3 alone. */
  downMs?: number;
  /** After each call: the way it went (orch_storage_etcd_txn_total's path). */
  onCall?: (path: 'direct' | 'etcd3') => void;
}

export class TxnClient {
  readonly #etcd: Etcd3;
  readonly #opts: TxnClientOptions;
  #session: http2.ClientHttp2Session | undefined;
  #next = 0;
  #downUntil = 0;
  #closed = false;

  constructor(etcd: Etcd3, opts: TxnClientOptions) {
    this.#etcd = etcd;
    this.#opts = opts;
  }

  async txn(req: TxnRequest): Promise<TxnResponse> {
    const session = this.#usable();
    if (session) {
      try {
        const res = await this.#call(session, req);
        this.#opts.onCall?.('direct');
        return res;
      } catch (err) {
        if (!(err instanceof ThroughEtcd3)) throw err;
      }
    }
    this.#opts.onCall?.('etcd3');
    return this.#etcd.kv.txn(req);
  }

  close(): void {
    this.#closed = true;
    this.#session?.close();
    this.#session = undefined;
  }

  #usable(): http2.ClientHttp2Session | undefined {
    const s = this.#session;
    if (s && !s.closed && !s.destroyed) return s;
    if (this.#closed || Date.now() < this.#downUntil || this.#opts.endpoints.length === 0)
      return undefined;
    const endpoint = this.#opts.endpoints[this.#next++ % this.#opts.endpoints.length]!;
    const session = http2.connect(endpoint);
    session.unref();
    const down = (): void => this.#down(session);
    session.on('error', down);
    session.on('goaway', down);
    session.on('close', () => {
      if (this.#session === session) this.#session = undefined;
    });
    this.#session = session;
    return session;
  }

  /**
   * The session's endpoint failed (an error, a GOAWAY, a call past its deadline: a member that
   * answers nothing keeps its connection open): its calls go through etcd3 for a while, then
   * the next endpoint is tried.
   */
  #down(session: http2.ClientHttp2Session): void {
    if (this.#session === session) {
      this.#session = undefined;
      this.#downUntil = Date.now() + (this.#opts.downMs ?? 1000);
    }
    session.destroy();
  }

  #call(session: http2.ClientHttp2Session, req: TxnRequest): Promise<TxnResponse> {
    const message = txnRequest.encode(txnRequest.fromObject(req as object)).finish();
    const frame = Buffer.allocUnsafe(5 + message.length);
    frame[0] = 0; // not compressed
    frame.writeUInt32BE(message.length, 1);
    frame.set(message, 5);
    return new Promise((resolve, reject) => {
      let stream: http2.ClientHttp2Stream;
      try {
        stream = session.request({
          ':method': 'POST',
          ':path': '/etcdserverpb.KV/Txn',
          'content-type': 'application/grpc',
          te: 'trailers',
          'grpc-timeout': `${this.#opts.timeoutMs}m`,
        });
      } catch {
        reject(new ThroughEtcd3());
        return;
      }
      let status: number | undefined;
      let details = '';
      const chunks: Buffer[] = [];
      const readStatus = (h: http2.IncomingHttpHeaders): void => {
        if (h['grpc-status'] === undefined) return;
        status = Number(h['grpc-status']);
        try {
          details = decodeURIComponent(String(h['grpc-message'] ?? ''));
        } catch {
          details = String(h['grpc-message']);
        }
      };
      let settled = false;
      const settle = (err: Error | undefined, res?: TxnResponse): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(res!);
      };
      const timer = setTimeout(() => {
        stream.close(http2.constants.NGHTTP2_CANCEL);
        this.#down(session);
        const err = statusError(grpcStatus.DEADLINE_EXCEEDED, 'Deadline exceeded');
        settle(isRecoverableError(err) ? new ThroughEtcd3() : err);
      }, this.#opts.timeoutMs);
      stream.on('response', readStatus); // a trailers-only answer has its status here
      stream.on('trailers', readStatus);
      stream.on('data', (c: Buffer) => chunks.push(c));
      // A reset or a lost connection: 'close' follows, and decides by whether a status came.
      stream.on('error', () => undefined);
      stream.on('close', () => {
        // Lost before its status: etcd3 would have had UNAVAILABLE from grpc-js, and retried.
        if (status === undefined) return settle(new ThroughEtcd3());
        if (status !== 0) {
          const err = statusError(status, details);
          return settle(isRecoverableError(err) ? new ThroughEtcd3() : err);
        }
        try {
          const body = Buffer.concat(chunks);
          const decoded = txnResponse.decode(body.subarray(5, 5 + body.readUInt32BE(1)));
          settle(undefined, txnResponse.toObject(decoded, asEtcd3) as TxnResponse);
        } catch (err) {
          settle(
            statusError(grpcStatus.INTERNAL, `undecodable Txn answer: ${(err as Error).message}`)
          );
        }
      });
      stream.end(frame);
    });
  }
}
