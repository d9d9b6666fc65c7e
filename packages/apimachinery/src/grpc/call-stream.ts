// Storage's Get, Create, Update, Delete and CurrentRevision carried on its Calls stream: one
// long-lived call on which each request names an id and its answer names it back, in whatever
// order the calls end. On this 2-core machine a unary call costs about 1.2 ms of the caller's
// CPU and 0.7 ms of the server's (grpc-js and node:http2 build a stream, headers and trailers
// for each); a message on an open stream about a tenth of that. Every write and every
// consistent read of a gateway makes at least one such call. (The storage client sends a write
// of an object over 64 KiB as a unary call instead: storage-client.ts, largeCallBytes.)
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
import type { CallError__Output, CallRequest, CallResponse__Output } from '@orch/proto';
import type { StatusError } from '../errors/index.js';
import { fromCallError, fromGrpcError } from '../errors/index.js';

/** A call the stream carries: the oneof member of CallRequest and CallResponse. */
export type CallName = 'get' | 'create' | 'update' | 'delete' | 'current_revision';
type Requests = Required<Pick<CallRequest, CallName>>;
type Answers = Required<{ [K in CallName]: NonNullable<CallResponse__Output[K]> }>;
export type CallDuplex = ClientDuplexStream<CallRequest, CallResponse__Output>;

/** The unary method of each call, for a server without the stream. */
export const unaryMethods = {
  get: 'Get',
  create: 'Create',
  update: 'Update',
  delete: 'Delete',
  current_revision: 'CurrentRevision',
} as const satisfies Record<CallName, string>;

export interface CallStreamOptions {
  /** Opens the stream on the replica of the moment; `failed` hears the code of a failure. */
  open(): { call: CallDuplex; failed(code: number): void };
  /** The unary call of the same name, for a server without the stream. */
  unary<K extends CallName>(name: K, req: Requests[K]): Promise<Answers[K]>;
  /** Deadline of each call. */
  timeoutMs: number;
  /** How long an open stream may go without calls. */
  idleMs: number;
}

interface Pending {
  resolve(answer: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
  name: CallName;
  req: unknown;
}

interface OpenStream {
  call: CallDuplex;
  failed(code: number): void;
  pending: Map<number, Pending>;
  idle?: NodeJS.Timeout;
  /** No new call goes on it. */
  retired: boolean;
  /** Failed or ended: nothing more is read from it. */
  done: boolean;
}

export class CallStream {
  readonly #opts: CallStreamOptions;
  #stream: OpenStream | undefined;
  #unsupported = false;
  #nextId = 1;

  constructor(opts: CallStreamOptions) {
    this.#opts = opts;
  }

  call<K extends CallName>(name: K, req: Requests[K]): Promise<Answers[K]> {
    if (this.#unsupported) return this.#opts.unary(name, req);
    const s = (this.#stream ??= this.#open());
    clearTimeout(s.idle);
    const id = this.#nextId++;
    return new Promise<Answers[K]>((resolve, reject) => {
      const timer = setTimeout(() => this.#deadline(s, id), this.#opts.timeoutMs);
      s.pending.set(id, { resolve: resolve as (a: unknown) => void, reject, timer, name, req });
      s.call.write({ id, [name]: req } as CallRequest);
    });
  }

  /** Ends the stream; calls pending on it fail. */
  close(): void {
    const s = this.#stream;
    if (s) this.#fail(s, { code: grpcStatus.CANCELLED, details: 'the storage client closed' });
  }

  #open(): OpenStream {
    const { call, failed } = this.#opts.open();
    const s: OpenStream = { call, failed, pending: new Map(), retired: false, done: false };
    call.on('data', (m: CallResponse__Output) => {
      const p = s.pending.get(m.id);
      if (!p) return; // past its deadline
      s.pending.delete(m.id);
      clearTimeout(p.timer);
      const result = m.result;
      if (result === 'error') p.reject(callError(m.error, p.name));
      else if (result === p.name) p.resolve(m[result]);
      else p.reject(callError(undefined, p.name, `answered with ${String(result)}`));
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
  #settled(s: OpenStream): void {
    if (s.pending.size > 0 || s.done) return;
    if (s.retired) return this.#end(s);
    s.idle = setTimeout(() => this.#end(s), this.#opts.idleMs);
    s.idle.unref();
  }

  /** A call past its deadline fails alone; its stream takes no new call. */
  #deadline(s: OpenStream, id: number): void {
    const p = s.pending.get(id);
    if (!p) return;
    s.pending.delete(id);
    this.#retire(s);
    s.failed(grpcStatus.DEADLINE_EXCEEDED);
    const details = `Deadline exceeded after ${this.#opts.timeoutMs} ms`;
    p.reject(fromGrpcError({ code: grpcStatus.DEADLINE_EXCEEDED, details }, storageWhat(p.name)));
    this.#settled(s);
  }

  /** A stream this side ends: nothing is pending on it. */
  #end(s: OpenStream): void {
    if (s.done || s.pending.size > 0) return;
    this.#retire(s);
    s.done = true;
    // A retired stream may be on a replica that stopped answering: cancel rather than wait.
    s.call.cancel();
  }

  #fail(s: OpenStream, err: Partial<ServiceError>): void {
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
    for (const p of pending) p.reject(fromGrpcError(err, storageWhat(p.name)));
  }

  #retire(s: OpenStream): void {
    s.retired = true;
    clearTimeout(s.idle);
    if (this.#stream === s) this.#stream = undefined;
  }
}

/** How a failed call is named in its error, as the unary call's would be. */
const storageWhat = (name: CallName): string => `storage ${unaryMethods[name]}`;

function callError(
  e: CallError__Output | null | undefined,
  name: CallName,
  why?: string
): StatusError {
  return fromCallError(
    { code: e?.code ?? grpcStatus.INTERNAL, message: e?.message ?? why ?? '', status: e?.status },
    storageWhat(name)
  );
}
