// A promise-based client of orch.storage.v1.Storage with a deadline on every call and errors
// rebuilt as StatusError.
import type { ChannelCredentials } from '@grpc/grpc-js';
import { channelOptions, storageProto } from '@orch/proto';
import type { StorageClient as GrpcStorageClient } from '@orch/proto';
import { fromGrpcError } from '../errors/index.js';

export type Consistency = 'MOST_RECENT' | 'ANY' | 'NOT_OLDER_THAN' | 'EXACT';

export interface StoredObject {
  object: Record<string, unknown>;
}

export interface ListRequest {
  prefix: string;
  consistency: Consistency;
  revision?: number;
  limit?: number;
  continueToken?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

export interface ListResponse {
  items: Record<string, unknown>[];
  revision: number;
  continueToken: string;
  /** -1 when not known (complete, or filtered by a selector). */
  remainingItemCount: number;
}

export interface RawListResponse {
  /** Each object's JSON, resourceVersion included. */
  items: Buffer[];
  revision: number;
  continueToken: string;
  /** -1 when not known (complete, or filtered by a selector). */
  remainingItemCount: number;
}

export interface HistoryEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  key: string;
  revision: number;
  object: Record<string, unknown>;
  prevObject?: Record<string, unknown>;
}

export interface Preconditions {
  uid?: string;
  revision?: number;
}

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
      const fn = (this.#client as unknown as Record<string, (r: Req, o: object, cb: (e: unknown, r: Res) => void) => void>)[method];
      if (!fn) return reject(new Error(`no method ${method}`));
      fn.call(this.#client, req, { deadline: Date.now() + timeoutMs }, (err, res) =>
        err ? reject(fromGrpcError(err, `storage ${method}`)) : resolve(res)
      );
    });
  }

  async get(key: string, consistency: Consistency, revision = 0): Promise<Json> {
    const res = await this.#unary<object, { object: Buffer }>('Get', { key, consistency: `CONSISTENCY_${consistency}`, revision });
    return parse(res.object);
  }

  async list(req: ListRequest): Promise<ListResponse> {
    const res = await this.listRaw(req);
    return { ...res, items: res.items.map(parse) };
  }

  /** A list with each item as the JSON bytes storage answered (for answers that pass them on). */
  async listRaw(req: ListRequest): Promise<RawListResponse> {
    const res = await this.#unary<object, { items: Buffer[]; revision: number; continue: string; remaining_item_count: number }>(
      'GetList',
      {
        prefix: req.prefix,
        consistency: `CONSISTENCY_${req.consistency}`,
        revision: req.revision ?? 0,
        limit: req.limit ?? 0,
        continue: req.continueToken ?? '',
        label_selector: req.labelSelector ?? '',
        field_selector: req.fieldSelector ?? '',
      },
      this.#timeoutMs * 3
    );
    return {
      items: res.items,
      revision: res.revision,
      continueToken: res.continue,
      remainingItemCount: res.remaining_item_count,
    };
  }


  async create(key: string, object: Json): Promise<Json> {
    return parse((await this.#unary<object, { object: Buffer }>('Create', { key, object: bytes(object) })).object);
  }

  async update(key: string, object: Json, pre: Preconditions): Promise<Json> {
    const res = await this.#unary<object, { object: Buffer }>('Update', { key, object: bytes(object), preconditions: pre });
    return parse(res.object);
  }

  async delete(key: string, pre: Preconditions): Promise<{ object: Json; revision: number }> {
    const res = await this.#unary<object, { object: Buffer; revision: number }>('Delete', { key, preconditions: pre });
    return { object: parse(res.object), revision: res.revision };
  }

  async currentRevision(): Promise<number> {
    return (await this.#unary<object, { revision: number }>('CurrentRevision', {})).revision;
  }

  /** Replays the changes of a type after a revision; resolves with the revision it is complete up to. */
  history(prefix: string, afterRevision: number, onEvent: (e: HistoryEvent) => void): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const call = this.#client.History({ prefix, after_revision: afterRevision }, { deadline: Date.now() + this.#historyTimeoutMs });
      let until = 0;
      call.on('data', (e: { type: string; key: string; revision: number; object: Buffer; prev_object: Buffer }) => {
        if (e.type === 'EVENT_TYPE_PROGRESS') {
          until = e.revision;
          return;
        }
        const ev: HistoryEvent = {
          type: e.type.replace('EVENT_TYPE_', '') as HistoryEvent['type'],
          key: e.key,
          revision: e.revision,
          object: parse(e.object),
        };
        if (e.prev_object.length > 0) ev.prevObject = parse(e.prev_object);
        onEvent(ev);
      });
      call.on('error', (err: unknown) => reject(fromGrpcError(err, 'storage History')));
      call.on('end', () => (until > 0 ? resolve(until) : reject(fromGrpcError(new Error('history ended early'), 'storage History'))));
    });
  }

  close(): void {
    this.#client.close();
  }
}
