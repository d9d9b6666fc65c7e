// Calls carried on one long-lived stream, on which each request names an id and its answer
// names it back, in whatever order the calls end: storage's Get, Create, Update, Delete and
// CurrentRevision on its Calls stream, the admission service's Admit on AdmitCalls. On this
// 2-core machine a unary call costs about 1.2 ms of the caller's CPU and 0.7 ms of the
// server's (grpc-js and node:http2 build a stream, headers and trailers for each); a message on
// an open stream about a tenth of that. Every write and every consistent read of a gateway makes
// at least one such call. (The storage client sends a write of an object over 64 KiB as a unary
// call instead: storage-client.ts, largeCallBytes.)
//
// Both streams' messages have one shape: a request is `{ id, <name>: request }` (a oneof named
// `call`), an answer `{ id, <name>: answer }` or `{ id, error }` (a oneof named `result`).
//
// Failures read as a unary call's would:
// - a call whose answer is an error fails alone, with the Status the answer carries;
// - a call not answered within its deadline fails alone with DEADLINE_EXCEEDED, and the stream is
//   retired: no new call goes on it (the next opens a stream on the replica of the moment, as a
//   unary call after a deadline goes elsewhere), and it is cancelled once nothing is pending;
// - a lost connection or an ended stream fails every call pending on it (UNAVAILABLE);
// - a stream left without calls for `idleMs` is ended, so that an idle connection carries no
//   open call (and no keepalive pings);
// - a server without Calls (UNIMPLEMENTED: a storage service of another make) is asked with the
//   unary calls from then on, the calls pending then included.
import { status as grpcStatus } from '@grpc/grpc-js';
import type { ClientDuplexStream, ServiceError } from '@grpc/grpc-js';
import type { StatusError } from '../errors/index.js';
import { fromCallError, fromGrpcError } from '../errors/index.js';

/** A failed call's answer: what a unary call's status and trailers would carry. */
export interface CallErrorMessage {
  code: number;
  message: string;
  status: Buffer;
}

/** An answer on the stream: the call's id and the oneof `result`. */
export type CallAnswerMessage<N extends string> = { id: number; result?: string } & {
  [K in N]?: unknown;
} & { error?: CallErrorMessage | null };

/** The stream of calls named N (each with its request in Req and answer in Ans). */
export type CallDuplex<N extends string, Req extends Record<N, unknown>> = ClientDuplexStream<
  { id: number } & Partial<Req>,
  CallAnswerMessage<N>
>;

export interface CallStreamOptions<
  N extends string,
  Req extends Record<N, unknown>,
  Ans extends Record<N, unknown>,
> {
  /** Opens the stream on the replica of the moment; `failed` hears the code of a failure. */
  open(): { call: CallDuplex<N, Req>; failed(code: number): void };
  /** The unary call of the same name, for a server without the stream. */
  unary<K extends N>(name: K, req: Req[K]): Promise<Ans[K]>;
  /** How a failed call is named in its error, as the unary call's would be (`storage Get`). */
  what(name: N): string;
  /** Whose client it is, for the error of the calls pending when it closes (`storage`). */
  client: string;
  /** Deadline of each call. */
  timeoutMs: number;
  /** How long an open stream may go without calls. */
  idleMs: number;
}

interface Pending<N extends string> {
  resolve(answer: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
  name: N;
  req: unknown;
}

interface OpenStream<N extends string, Req extends Record<N, unknown>> {
  call: CallDuplex<N, Req>;
  failed(code: number): void;
  pending: Map<number, Pending<N>>;
  idle?: NodeJS.Timeout;
  /** No new call goes on it. */
  retired: boolean;
  /** Failed or ended: nothing more is read from it. */
  done: boolean;
}

export class CallStream<
  N extends string,
  Req extends Record<N, unknown>,
  Ans extends Record<N, unknown>,
> {
  readonly #opts: CallStreamOptions<N, Req, Ans>;
  #stream: OpenStream<N, Req> | undefined;
  #unsupported = false;
  #nextId = 1;

  constructor(opts: CallStreamOptions<N, Req, Ans>) {
    this.#opts = opts;
  }

  call<K extends N>(name: K, req: Req[K]): Promise<Ans[K]> {
    if (this.#unsupported) return this.#opts.unary(name, req);
    const s = (this.#stream ??= this.#open());
    clearTimeout(s.idle);
    const id = this.#nextId++;
    return new Promise<Ans[K]>((resolve, reject) => {
      const timer = setTimeout(() => this.#deadline(s, id), this.#opts.timeoutMs);
      s.pending.set(id, { resolve: resolve as (a: unknown) => void, reject, timer, name, req });
      s.call.write({ id, [name]: req } as { id: number } & Partial<Req>);
    });
  }

  /** Ends the stream; calls pending on it fail. */
  close(): void {
    const s = this.#stream;
    const details = `the ${this.#opts.client} client closed`;
    if (s) this.#fail(s, { code: grpcStatus.CANCELLED, details });
  }

  #open(): OpenStream<N, Req> {
    const { call, failed } = this.#opts.open();
    const s: OpenStream<N, Req> = {
      call,
      failed,
      pending: new Map(),
      retired: false,
      done: false,
    };
    call.on('data', (m: CallAnswerMessage<N>) => {
      const p = s.pending.get(m.id);
      if (!p) return; // past its deadline
      s.pending.delete(m.id);
      clearTimeout(p.timer);
      const result = m.result;
      if (result === 'error') p.reject(this.#callError(m.error, p.name));
      else if (result === p.name) p.resolve(m[p.name]);
      else p.reject(this.#callError(undefined, p.name, `answered with ${String(result)}`));
      this.#settled(s);
    });
    call.on('error', (err: ServiceError) => this.#fail(s, err));
    // Ended without an error (the server stopping): what is pending has no answer.
    call.on('end', () =>
      this.#fail(s, { code: grpcStatus.UNAVAILABLE, details: 'the Calls stream ended' })
    );
    return s;
  }

  /** After an answer: an empty stream waits `idleMs` for calls, or ends at once if retired. */
  #settled(s: OpenStream<N, Req>): void {
    if (s.pending.size > 0 || s.done) return;
    if (s.retired) return this.#end(s);
    s.idle = setTimeout(() => this.#end(s), this.#opts.idleMs);
    s.idle.unref();
  }

  /** A call past its deadline fails alone; its stream takes no new call. */
  #deadline(s: OpenStream<N, Req>, id: number): void {
    const p = s.pending.get(id);
    if (!p) return;
    s.pending.delete(id);
    this.#retire(s);
    s.failed(grpcStatus.DEADLINE_EXCEEDED);
    const details = `Deadline exceeded after ${this.#opts.timeoutMs} ms`;
    p.reject(
      fromGrpcError({ code: grpcStatus.DEADLINE_EXCEEDED, details }, this.#opts.what(p.name))
    );
    this.#settled(s);
  }

  /** A stream this side ends: nothing is pending on it. */
  #end(s: OpenStream<N, Req>): void {
    if (s.done || s.pending.size > 0) return;
    this.#retire(s);
    s.done = true;
    // A retired stream may be on a replica that stopped answering: cancel rather than wait.
    s.call.cancel();
  }

  #fail(s: OpenStream<N, Req>, err: Partial<ServiceError>): void {
    if (s.done) return;
    this.#retire(s);
    s.done = true;
    const pending = [...s.pending.values()];
    s.pending.clear();
    for (const p of pending) clearTimeout(p.timer);
    if (err.code === grpcStatus.UNIMPLEMENTED) {
      this.#unsupported = true;
      for (const p of pending) {
        this.#opts.unary(p.name, p.req as never).then(p.resolve, p.reject);
      }
      return;
    }
    s.call.cancel(); // nothing if the call has ended; its 'error' then finds it done
    if (pending.length === 0) return;
    s.failed(err.code ?? grpcStatus.UNKNOWN);
    for (const p of pending) p.reject(fromGrpcError(err, this.#opts.what(p.name)));
  }

  #retire(s: OpenStream<N, Req>): void {
    s.retired = true;
    clearTimeout(s.idle);
    if (this.#stream === s) this.#stream = undefined;
  }

  #callError(e: CallErrorMessage | null | undefined, name: N, why?: string): StatusError {
    return fromCallError(
      { code: e?.code ?? grpcStatus.INTERNAL, message: e?.message ?? why ?? '', status: e?.status },
      this.#opts.what(name)
    );
  }
}
