// One etcd watch on its own gRPC stream, without the etcd3 library's reconnecting manager: the
// history replay and the publisher need to see compaction and stream failure as they happen.
import type { Etcd3, IEvent, IWatchResponse } from 'etcd3';

export interface RawWatch {
  /** Resolves with the next batch of events, or rejects when the watch fails or is cancelled. */
  next(): Promise<{ events: IEvent[]; revision: number }>;
  close(): void;
}

export class WatchCompactedError extends Error {
  override readonly name = 'WatchCompactedError';
  constructor(readonly compactRevision: number) {
    super(`required revision has been compacted (compact revision ${compactRevision})`);
  }
}

export async function openRawWatch(
  etcd: Etcd3,
  range: { key: string; rangeEnd: string; startRevision: number }
): Promise<RawWatch> {
  const stream = await etcd.watchClient.watch();
  const queue: { events: IEvent[]; revision: number }[] = [];
  let failure: Error | undefined;
  let waiter: { resolve: () => void } | undefined;
  const wake = (): void => {
    const w = waiter;
    waiter = undefined;
    w?.resolve();
  };
  stream.on('data', (res: IWatchResponse) => {
    if (res.canceled) {
      const compact = Number(res.compact_revision);
      failure =
        compact > 0
          ? new WatchCompactedError(compact)
          : new Error(`watch cancelled: ${res.cancel_reason}`);
    } else if (res.events.length > 0) {
      queue.push({ events: res.events, revision: Number(res.header.revision) });
    }
    wake();
  });
  stream.on('error', (err: Error) => {
    failure ??= err;
    wake();
  });
  stream.on('end', () => {
    failure ??= new Error('watch stream ended');
    wake();
  });
  stream.write({
    create_request: {
      key: Buffer.from(range.key),
      range_end: Buffer.from(range.rangeEnd, 'latin1'),
      start_revision: range.startRevision,
      prev_kv: true,
    },
  });
  return {
    async next() {
      for (;;) {
        const batch = queue.shift();
        if (batch) return batch;
        if (failure) throw failure;
        await new Promise<void>((resolve) => (waiter = { resolve }));
      }
    },
    close() {
      failure ??= new Error('watch closed');
      // Ended, then cancelled: etcd ends a watch stream when the call is cancelled (its context
      // is done), and takes the client's end of sending only as nothing more to create. Ending
      // the stream alone left the watch open on etcd, and every change under its range kept
      // coming to this process and being decoded: one more watch for each history replay, for
      // the life of the process. Ended first, so that the cancellation's error finds the stream
      // no longer writable: the etcd3 library takes an error on a writable watch stream for the
      // host failing, and resets its connection.
      try {
        stream.end();
        stream.cancel();
      } catch {
        // already closed
      }
      wake();
    },
  };
}
