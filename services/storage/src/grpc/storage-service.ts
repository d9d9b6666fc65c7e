// The orch.storage.v1.Storage gRPC service over the etcd store.
import type { Etcd3 } from 'etcd3';
import type { ServerWritableStream } from '@grpc/grpc-js';
import { toGrpcError } from '@orch/apimachinery/errors';
import type { StorageHandlers } from '@orch/proto';
import { unaryHandlers } from '@orch/component-base/grpc-server';
import type { Histogram } from 'prom-client';
import type { Consistency, EtcdStore } from '../etcd3/store.js';
import { replayHistory } from '../etcd3/history.js';

const consistencyOf = (c: string): Consistency => {
  switch (c) {
    case 'CONSISTENCY_ANY':
      return 'ANY';
    case 'CONSISTENCY_NOT_OLDER_THAN':
      return 'NOT_OLDER_THAN';
    case 'CONSISTENCY_EXACT':
      return 'EXACT';
    default:
      return 'MOST_RECENT';
  }
};

export function storageService(store: EtcdStore, etcd: Etcd3, latency: Histogram<'operation' | 'code'>): StorageHandlers {
  const unary = unaryHandlers({ latency, label: 'operation' });

  return {
    Get: unary('get', async (req) => {
      const r = await store.get(req.key, consistencyOf(req.consistency), req.revision);
      return { object: r.object, revision: r.revision };
    }),
    GetList: unary('list', async (req) => {
      const r = await store.list({
        prefix: req.prefix,
        consistency: consistencyOf(req.consistency),
        revision: req.revision,
        limit: req.limit,
        continueToken: req.continue,
        labelSelector: req.label_selector,
        fieldSelector: req.field_selector,
      });
      return { items: r.items, revision: r.revision, continue: r.continueToken, remaining_item_count: r.remainingItemCount };
    }),
    Create: unary('create', async (req) => ({ object: await store.create(req.key, req.object) })),
    Update: unary('update', async (req) => ({
      object: await store.update(req.key, req.object, {
        uid: req.preconditions?.uid ?? '',
        revision: req.preconditions?.revision ?? 0,
      }),
    })),
    Delete: unary('delete', async (req) => {
      const r = await store.delete(req.key, {
        uid: req.preconditions?.uid ?? '',
        revision: req.preconditions?.revision ?? 0,
      });
      return { object: r.object, revision: r.revision };
    }),
    CurrentRevision: unary('current_revision', async () => ({ revision: await store.currentRevision() })),
    History: (call: ServerWritableStream<{ prefix: string; after_revision: number }, unknown>) => {
      const end = latency.startTimer({ operation: 'history' });
      replayHistory(etcd, call.request.prefix, call.request.after_revision, (e) => {
        call.write({
          type: `EVENT_TYPE_${e.type}`,
          key: e.key,
          revision: e.revision,
          object: e.object,
          prev_object: e.prevObject ?? Buffer.alloc(0),
        });
      }).then(
        (until) => {
          call.write({ type: 'EVENT_TYPE_PROGRESS', revision: until });
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
