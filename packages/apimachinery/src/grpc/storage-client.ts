// A promise-based client of orch.storage.v1.Storage with a deadline on every call and errors
// rebuilt as StatusError.
import type { ChannelCredentials } from '@grpc/grpc-js';
import { channelOptions, storageProto } from '@orch/proto';
import type {
  Event__Output,
  GetListRequest,
  GetListResponse__Output,
  StorageClient as GrpcStorageClient,
} from '@orch/proto';
import { fromGrpcError } from '../errors/index.js';
import type {
  Consistency,
  HistoryEvent,
  ListOptions,
  ListResult,
  Preconditions,
} from '../storage/index.js';
import {
  consistencyToProto,
  historyEventFromProto,
  historyProgressFromProto,
  listOptionsToProto,
  listResultFromProto,
  preconditionsToProto,
} from './storage-mapping.js';

/** A list with each item decoded. */
export type ListResponse = Omit<ListResult, 'items'> & { items: Record<string, unknown>[] };

/** A change of a replayed history with its objects decoded. */
export type DecodedHistoryEvent = Omit<HistoryEvent, 'object' | 'prevObject'> & {
  object: Record<string, unknown>;
  prevObject?: Record<string, unknown>;
};

type Json = Record<string, unknown>;

const parse = (b: Buffer | Uint8Array): Json => JSON.parse(Buffer.from(b).toString('utf8')) as Json;
const bytes = (o: Json): Buffer => Buffer.from(JSON.stringify(o));

export interface StorageClientOptions {
  address: string;
  credentials: ChannelCredentials;
  /** Deadline of unary calls. */
  timeoutMs?: number;
  /** Deadline of a history replay. */
  historyTimeoutMs?: number;
}

export class StorageClient {
  readonly #client: GrpcStorageClient;
  readonly #timeoutMs: number;
  readonly #historyTimeoutMs: number;

  constructor(opts: StorageClientOptions) {
    this.#client = new storageProto.orch.storage.v1.Storage(opts.address, opts.credentials, {
      'grpc.max_receive_message_length': 256 * 1024 * 1024,
      ...channelOptions,
      'grpc.keepalive_time_ms': 30_000,
      'grpc.ssl_target_name_override': 'storage',
    });
    this.#timeoutMs = opts.timeoutMs ?? 10_000;
    this.#historyTimeoutMs = opts.historyTimeoutMs ?? 60_000;
  }

  #unary<Req, Res>(method: string, req: Req, timeoutMs = this.#timeoutMs): Promise<Res> {
    return new Promise<Res>((resolve, reject) => {
      const fn = (
        this.#client as unknown as Record<
          string,
          (r: Req, o: object, cb: (e: unknown, r: Res) => void) => void
        >
      )[method];
      if (!fn) return reject(new Error(`no method ${method}`));
      fn.call(this.#client, req, { deadline: Date.now() + timeoutMs }, (err, res) =>
        err ? reject(fromGrpcError(err, `storage ${method}`)) : resolve(res)
      );
    });
  }

  async get(key: string, consistency: Consistency, revision = 0): Promise<Json> {
    const req = { key, consistency: consistencyToProto(consistency), revision };
    const res = await this.#unary<object, { object: Buffer }>('Get', req);
    return parse(res.object);
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

  async create(key: string, object: Json): Promise<Json> {
    return parse(
      (await this.#unary<object, { object: Buffer }>('Create', { key, object: bytes(object) }))
        .object
    );
  }

  async update(key: string, object: Json, pre: Preconditions): Promise<Json> {
    const req = { key, object: bytes(object), preconditions: preconditionsToProto(pre) };
    const res = await this.#unary<object, { object: Buffer }>('Update', req);
    return parse(res.object);
  }

  async delete(key: string, pre: Preconditions): Promise<{ object: Json; revision: number }> {
    const res = await this.#unary<object, { object: Buffer; revision: number }>('Delete', {
      key,
      preconditions: preconditionsToProto(pre),
    });
    return { object: parse(res.object), revision: res.revision };
  }

  async currentRevision(): Promise<number> {
    return (await this.#unary<object, { revision: number }>('CurrentRevision', {})).revision;
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
    this.#client.close();
  }
}
