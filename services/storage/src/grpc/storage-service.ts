// The orch.storage.v1.Storage gRPC service over the etcd store.
import type { Etcd3 } from 'etcd3';
import type { ServerDuplexStream, ServerWritableStream } from '@grpc/grpc-js';
import { newBadRequest, toGrpcError } from '@orch/apimachinery/errors';
import type {
  CallRequest__Output,
  CallResponse,
  CreateRequest__Output,
  DeleteRequest__Output,
  GetRequest__Output,
  StorageHandlers,
  UpdateRequest__Output,
} from '@orch/proto';
import { onHalfClose, serveCalls, unaryHandlers } from '@orch/component-base/grpc-server';
import type { Histogram } from 'prom-client';
import {
  consistencyFromProto,
  historyEventToProto,
  historyProgressToProto,
  listOptionsFromProto,
  listResultToProto,
  preconditionsFromProto,
} from '@orch/apimachinery/grpc';
import type { EtcdStore } from '../etcd3/store.js';
import { replayHistory } from '../etcd3/history.js';
import { RevisionReader } from '@orch/apimachinery/storage';

/**
 * The handlers; `stopping` aborts when the server begins to stop, and each Calls or Revisions stream then
 * ends once its pending requests are answered (the callers open their next one elsewhere), so
 * that a graceful stop is not held by the gateways' long-lived streams.
 */
export function storageService(
  store: EtcdStore,
  etcd: Etcd3,
  latency: Histogram<'operation' | 'code'>,
  stopping?: AbortSignal
): StorageHandlers {
  const unary = unaryHandlers({ latency, label: 'operation' });
  const revisions = new RevisionReader(() => store.currentRevision());

  // The calls Calls carries, each also served alone (its unary method).
  const calls = {
    get: async (req: GetRequest__Output) => {
      const r = await store.get(req.key, consistencyFromProto(req.consistency), req.revision);
      return { object: r.object, revision: r.revision };
    },
    create: async (req: CreateRequest__Output) => ({
      object: await store.create(req.key, req.object),
    }),
    update: async (req: UpdateRequest__Output) => ({
      object: await store.update(req.key, req.object, preconditionsFromProto(req.preconditions)),
    }),
    delete: async (req: DeleteRequest__Output) => {
      const r = await store.delete(req.key, preconditionsFromProto(req.preconditions));
      return { object: r.object, revision: r.revision };
    },
    // Many gateways' calls, one etcd read: each still gets a revision read after it arrived.
    current_revision: async () => ({ revision: await revisions.current() }),
  } satisfies Record<NonNullable<CallRequest__Output['call']>, (req: never) => Promise<object>>;

  return {
    Get: unary('get', calls.get),
    GetList: unary('list', async (req) => {
      const r = await store.list(listOptionsFromProto(req));
      return listResultToProto(r);
    }),
    Create: unary('create', calls.create),
    Update: unary('update', calls.update),
    Delete: unary('delete', calls.delete),
    CurrentRevision: unary('current_revision', calls.current_revision),
    // Each call answered under its id once it ends, in whatever order; a failed call answered
    // with its error. The stream ends when the caller ends it, or when the server stops, once
    // the calls pending on it are answered (the callers open their next one elsewhere).
    Calls: (call: ServerDuplexStream<CallRequest__Output, CallResponse>) =>
      serveCalls(call, { latency, label: 'operation', stopping }, (m) => {
        const name = m.call;
        if (!name) throw newBadRequest('a Calls request names no call');
        const run = calls[name] as (req: unknown) => Promise<object>;
        return { member: name, name, run: () => run(m[name]) };
      }),
    // Served for callers that predate Calls. Each request answered in order, whatever order
    // the reads end in (the reader may run several at once, and a later request's read may end
    // first); a failed read ends the stream with its status, and the caller opens another.
    Revisions: (call: ServerDuplexStream<unknown, unknown>) => {
      let failed = false;
      let pending = 0;
      let halfClosed = false;
      /** The answer written last, which the next one waits for. */
      let previous: Promise<void> = Promise.resolve();
      const endIfDone = (): void => {
        if (halfClosed && pending === 0 && !failed) call.end();
      };
      call.on('data', () => {
        pending++;
        const end = latency.startTimer({ operation: 'revisions' });
        const read = revisions.current().then(
          (revision) => {
            end({ code: 'OK' });
            return { revision };
          },
          (err: unknown) => {
            const error = toGrpcError(err);
            end({ code: String(error.code) });
            return { error };
          }
        );
        previous = previous.then(async () => {
          const r = await read;
          if (!failed) {
            if ('error' in r) call.emit('error', r.error);
            else call.write(r);
          }
          if ('error' in r) failed = true;
          pending--;
          endIfDone();
        });
      });
      // The caller's end, or the server's stop: the stream ends once its last request is answered.
      onHalfClose(call, stopping, () => {
        halfClosed = true;
        endIfDone();
      });
    },
    History: (call: ServerWritableStream<{ prefix: string; after_revision: number }, unknown>) => {
      const end = latency.startTimer({ operation: 'history' });
      replayHistory(etcd, call.request.prefix, call.request.after_revision, (e) => {
        call.write(historyEventToProto(e));
      }).then(
        (until) => {
          call.write(historyProgressToProto(until));
          end({ code: 'OK' });
          call.end();
        },
        (err: unknown) => {
          const g = toGrpcError(err);
          end({ code: String(g.code) });
          call.emit('error', g);
        }
      );
    },
  } as StorageHandlers;
}
