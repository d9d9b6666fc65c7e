// History replay: the changes under a type prefix after a revision, in revision order, up to a
// revision at which the replay is known to be complete.
//
// An etcd watch does not say when it has sent all past events. So the replay writes a sentinel
// key just past the prefix (`/registry/<group>/<resource>0`, which no type owns and the
// publisher ignores) after opening the watch on [prefix, sentinel]; the watch delivers events
// in revision order, so the sentinel's own event proves every earlier one was delivered.
import type { Etcd3, IEvent } from 'etcd3';
import { newBadRequest, newResourceExpired } from '@orch/apimachinery/errors';
import type { HistoryEvent } from '@orch/apimachinery/storage';
import { isTypePrefix, prefixEnd, withResourceVersion } from '@orch/apimachinery/storage';
import { interpretEtcdError } from './errors.js';
import { WatchCompactedError, openRawWatch } from './raw-watch.js';

/** Translates one etcd event; resourceVersion of a deleted object is the deletion revision. */
export function toHistoryEvent(e: IEvent): HistoryEvent | undefined {
  const revision = Number(e.kv.mod_revision);
  const key = e.kv.key.toString('latin1');
  if (e.type === 'Delete') {
    if (!e.prev_kv) return undefined;
    return {
      type: 'DELETED',
      key,
      revision,
      object: withResourceVersion(e.prev_kv.value, revision),
      prevObject: withResourceVersion(e.prev_kv.value, e.prev_kv.mod_revision),
    };
  }
  const created = e.kv.create_revision === e.kv.mod_revision;
  const ev: HistoryEvent = {
    type: created ? 'ADDED' : 'MODIFIED',
    key,
    revision,
    object: withResourceVersion(e.kv.value, revision),
  };
  if (!created && e.prev_kv)
    ev.prevObject = withResourceVersion(e.prev_kv.value, e.prev_kv.mod_revision);
  return ev;
}

export async function replayHistory(
  etcd: Etcd3,
  prefix: string,
  afterRevision: number,
  emit: (e: HistoryEvent) => void,
  timeoutMs = 30_000
): Promise<number> {
  if (!isTypePrefix(prefix))
    throw newBadRequest(
      `history is kept per type: ${JSON.stringify(prefix)} is not /registry/<group>/<resource>/`
    );
  const sentinel = prefixEnd(prefix);
  const watch = await openRawWatch(etcd, {
    key: prefix,
    rangeEnd: `${sentinel}\0`,
    startRevision: afterRevision + 1,
  });
  const timer = setTimeout(() => watch.close(), timeoutMs);
  try {
    const put = await etcd.kv.put({
      key: Buffer.from(sentinel),
      value: Buffer.from(String(Date.now())),
    });
    const until = Number(put.header.revision);
    for (;;) {
      const { events } = await watch.next();
      for (const e of events) {
        const key = e.kv.key.toString('latin1');
        if (key === sentinel) {
          if (Number(e.kv.mod_revision) >= until) return until;
          continue;
        }
        const ev = toHistoryEvent(e);
        if (ev) emit(ev);
      }
    }
  } catch (err) {
    if (err instanceof WatchCompactedError) {
      throw newResourceExpired(
        `too old resource version: ${afterRevision} (${err.compactRevision})`
      );
    }
    throw interpretEtcdError(err, 'history');
  } finally {
    clearTimeout(timer);
    watch.close();
  }
}
