// A promise-based client of orch.storage.v1.Storage with a deadline on every call and errors
// rebuilt as StatusError.
//
// It may be given several replicas (`--storage-servers=a:6501,b:6501`, as kube-apiserver takes
// several `--etcd-servers`): it keeps a channel to each, sends every call to the one it used
// last while that one is not failing, and moves to the next reachable one when it is. A call in
// flight when its replica dies fails as before; the next one goes elsewhere. Behind one DNS name
// with several addresses (compose, a headless Service), grpc-js's pick_first does the same within
// one channel.
import { connectivityState, status as grpcStatus } from '@grpc/grpc-js';
import type { ChannelCredentials } from '@grpc/grpc-js';
import { channelOptions, storageProto } from '@orch/proto';
import type {
  CallRequest,
  CallResponse__Output,
  Event__Output,
  GetListRequest,
  GetListResponse__Output,
  StorageClient as GrpcStorageClient,
} from '@orch/proto';
import { fromGrpcError } from '../errors/index.js';
import { CallStream } from './call-stream.js';
import type { CallDuplex } from './call-stream.js';
import type {
  Consistency,
  DecodedHistoryEvent,
  ListOptions,
  ListResponse,
  ListResult,
  Preconditions,
  StorageInterface,
} from '../storage/index.js';
import {
  consistencyToProto,
  historyEventFromProto,
  historyProgressFromProto,
  listOptionsToProto,
  listResultFromProto,
  preconditionsToProto,
} from './storage-mapping.js';

type Json = Record<string, unknown>;

/**
 * A write whose object is larger goes as a unary call, on an HTTP/2 stream of its own: on the
 * Calls stream its bytes would cross the stream's flow-control window ahead of every small call
 * sent after it.
 */
export const largeCallBytes = 64 * 1024;

const parse = (b: Buffer | Uint8Array): Json => JSON.parse(Buffer.from(b).toString('utf8')) as Json;
const bytes = (o: Json): Buffer => Buffer.from(JSON.stringify(o));

export interface StorageClientOptions {
  /**
   * `host:port` of a replica, or several separated by commas (in order of preference); or one
   * gRPC target URI (`dns:`, `ipv4:`, `ipv6:`, `unix:`), taken whole: one channel over whatever
   * addresses it names.
   */
  address: string;
  credentials: ChannelCredentials;
  /** Deadline of unary calls. */
  timeoutMs?: number;
  /** Deadline of a history replay. */
  historyTimeoutMs?: number;
  /** How long the Calls stream stays open without calls (default 30 s). */
  callsIdleMs?: number;
}

/** A call on the Calls stream: the oneof member of CallRequest and CallResponse. */
type CallName = 'get' | 'create' | 'update' | 'delete' | 'current_revision';
type CallRequests = Required<Pick<CallRequest, CallName>>;
type CallAnswers = Required<{ [K in CallName]: NonNullable<CallResponse__Output[K]> }>;

/** The unary method of each call, for a server without the stream. */
const unaryMethods = {
  get: 'Get',
  create: 'Create',
  update: 'Update',
  delete: 'Delete',
  current_revision: 'CurrentRevision',
} as const satisfies Record<CallName, string>;

export class StorageClient implements StorageInterface {
  readonly #replicas: GrpcStorageClient[];
  readonly #addresses: string[];
  readonly #credentials: ChannelCredentials;
  #current = 0;
  readonly #timeoutMs: number;
  readonly #historyTimeoutMs: number;
  readonly #calls: CallStream<CallName, CallRequests, CallAnswers>;

  constructor(opts: StorageClientOptions) {
    const addresses = /^(dns|ipv4|ipv6|unix|unix-abstract):/.test(opts.address.trim())
      ? [opts.address.trim()]
      : opts.address
          .split(',')
          .map((a) => a.trim())
          .filter((a) => a !== '');
    if (addresses.length === 0) throw new Error('a storage client needs an address');
    this.#addresses = addresses;
    this.#credentials = opts.credentials;
    this.#replicas = addresses.map((address) => this.#channel(address));
    // Standby replicas connect now, so that moving to one does not wait for a handshake.
    if (this.#replicas.length > 1)
      for (const r of this.#replicas) r.getChannel().getConnectivityState(true);
    this.#timeoutMs = opts.timeoutMs ?? 10_000;
    this.#historyTimeoutMs = opts.historyTimeoutMs ?? 60_000;
    // Get, Create, Update, Delete and CurrentRevision on one stream (call-stream.ts).
    this.#calls = new CallStream({
      open: () => {
        const client = this.#client;
        const call = client.Calls() as unknown as CallDuplex<CallName, CallRequests>;
        return { call, failed: (code) => this.#failed(client, code) };
      },
      unary: <K extends CallName>(name: K, req: CallRequests[K]) =>
        this.#unary<CallRequests[K], CallAnswers[K]>(unaryMethods[name], req),
      what: (name) => `storage ${unaryMethods[name]}`,
      client: 'storage',
      timeoutMs: this.#timeoutMs,
      idleMs: opts.callsIdleMs ?? 30_000,
    });
  }

  /**
   * The replica for the next call: the last one used unless its channel is failing, else the
   * next one, in order, that is not (pick_first across replicas). A channel that is idle or
   * connecting is given its chance; when every one is failing the last one used is kept, and
   * the call fails as it would with one replica.
   */
  get #client(): GrpcStorageClient {
    const n = this.#replicas.length;
    if (n === 1) return this.#replicas[0]!; // nothing to choose: no state to read on every call
    for (let i = 0; i < n; i++) {
      const at = (this.#current + i) % n;
      const state = this.#replicas[at]!.getChannel().getConnectivityState(true);
      if (state !== connectivityState.TRANSIENT_FAILURE && state !== connectivityState.SHUTDOWN) {
        this.#current = at;
        break;
      }
    }
    return this.#replicas[this.#current]!;
  }

  /**
   * After a call that found its replica unavailable (or that it did not answer in time), the
   * next calls start at the next replica: a connection that dropped leaves its channel idle (not
   * failing), and trying it again would fail a second call before the channel reports the
   * failure.
   */
  #unavailable(client: GrpcStorageClient): void {
    const n = this.#replicas.length;
    if (n > 1 && this.#replicas[this.#current] === client) this.#current = (this.#current + 1) % n;
  }

  /**
   * With one address (a name that may stand for several replicas, as compose's service name
   * does), a call that ran past its deadline replaces the channel: the old one would keep its
   * connection to a stopped replica until keepalive gives up on it (15 s), while a new one
   * resolves the name again and connects to the first address that answers (grpc-js tries the
   * next after 250 ms). Calls under way on the old channel run to their end.
   */
  #reconnect(client: GrpcStorageClient): void {
    if (this.#replicas.length !== 1 || this.#replicas[0] !== client) return;
    this.#replicas[0] = this.#channel(this.#addresses[0]!);
    client.close();
  }

  #channel(address: string): GrpcStorageClient {
    return new storageProto.orch.storage.v1.Storage(address, this.#credentials, {
      'grpc.max_receive_message_length': 256 * 1024 * 1024,
      ...channelOptions,
      'grpc.ssl_target_name_override': 'storage',
    });
  }

  /**
   * After a call failed with `code`. A replica that let a call run past its deadline may be
   * stopped (paused, its machine frozen) with its connection still open: its channel reports
   * nothing, so the next calls start elsewhere, as after an unavailable one. Replicas are
   * interchangeable, so this costs nothing when the cause was etcd and every replica is slow.
   */
  #failed(client: GrpcStorageClient, code: unknown): void {
    if (code === grpcStatus.UNAVAILABLE || code === grpcStatus.DEADLINE_EXCEEDED) {
      this.#unavailable(client);
    }
    if (code === grpcStatus.DEADLINE_EXCEEDED) this.#reconnect(client);
  }

  #unary<Req, Res>(method: string, req: Req, timeoutMs = this.#timeoutMs): Promise<Res> {
    return new Promise<Res>((resolve, reject) => {
      const client = this.#client;
      // A grpc-js client's methods are untyped properties, found here by name.
      const fn = (
        client as unknown as Record<
          string,
          (r: Req, o: object, cb: (e: unknown, r: Res) => void) => void
        >
      )[method];
      if (!fn) return reject(new Error(`no method ${method}`));
      fn.call(client, req, { deadline: Date.now() + timeoutMs }, (err, res) => {
        if (!err) return resolve(res);
        this.#failed(client, (err as { code?: unknown }).code);
        reject(fromGrpcError(err, `storage ${method}`));
      });
    });
  }

  async get(key: string, consistency: Consistency, revision = 0): Promise<Json> {
    const req = { key, consistency: consistencyToProto(consistency), revision };
    return parse((await this.#calls.call('get', req)).object);
  }

  async list(req: ListOptions): Promise<ListResponse> {
    const res = await this.listRaw(req);
    return { ...res, items: res.items.map(parse) };
  }

  /** A list with each item as the JSON bytes storage answered (for answers that pass them on). */
  async listRaw(req: ListOptions): Promise<ListResult> {
    const res = await this.#unary<GetListRequest, GetListResponse__Output>(
      'GetList',
      listOptionsToProto(req),
      this.#timeoutMs * 3
    );
    return listResultFromProto(res);
  }

  /** A write on the Calls stream, or as a unary call when its object is large (largeCallBytes). */
  #write<K extends 'create' | 'update'>(
    name: K,
    req: NonNullable<CallRequests[K]> & { object: Buffer }
  ): Promise<CallAnswers[K]> {
    return req.object.length > largeCallBytes
      ? this.#unary<CallRequests[K], CallAnswers[K]>(unaryMethods[name], req)
      : this.#calls.call(name, req);
  }

  async create(key: string, object: Json): Promise<Json> {
    return parse((await this.#write('create', { key, object: bytes(object) })).object);
  }

  async update(key: string, object: Json, pre: Preconditions): Promise<Json> {
    const req = { key, object: bytes(object), preconditions: preconditionsToProto(pre) };
    return parse((await this.#write('update', req)).object);
  }

  async delete(key: string, pre: Preconditions): Promise<{ object: Json; revision: number }> {
    const req = { key, preconditions: preconditionsToProto(pre) };
    const res = await this.#calls.call('delete', req);
    return { object: parse(res.object), revision: res.revision };
  }

  /** A revision read after this call. */
  async currentRevision(): Promise<number> {
    return (await this.#calls.call('current_revision', {})).revision;
  }

  /** Replays the changes of a type after a revision; resolves with the revision it is complete up to. */
  history(
    prefix: string,
    afterRevision: number,
    onEvent: (e: DecodedHistoryEvent) => void
  ): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const call = this.#client.History(
        { prefix, after_revision: afterRevision },
        { deadline: Date.now() + this.#historyTimeoutMs }
      );
      let until = 0;
      call.on('data', (e: Event__Output) => {
        const progress = historyProgressFromProto(e);
        if (progress !== undefined) {
          until = progress;
          return;
        }
        const h = historyEventFromProto(e);
        if (!h) return;
        const { object, prevObject, ...change } = h;
        const ev: DecodedHistoryEvent = { ...change, object: parse(object) };
        if (prevObject) ev.prevObject = parse(prevObject);
        onEvent(ev);
      });
      call.on('error', (err: unknown) => reject(fromGrpcError(err, 'storage History')));
      call.on('end', () =>
        until > 0
          ? resolve(until)
          : reject(fromGrpcError(new Error('history ended early'), 'storage History'))
      );
    });
  }

  close(): void {
    this.#calls.close();
    for (const r of this.#replicas) r.close();
  }
}
