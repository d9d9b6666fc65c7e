// The public API as a ListerWatcher (client-go tools/cache/listwatch.go over a REST client):
// a paged list at one resourceVersion, then a watch from it with bookmarks. A watch ends when
// the server ends it (its timeout) and the reflector watches again from the last revision; an
// ERROR event carrying a Status (410 when the history is gone) rejects with that Status.
import { StatusError, isStatus, newInternalError } from '../errors/index.js';
import type { RestClient } from '../client/index.js';
import type { ChangeType, ListerWatcher, WatchSink } from './interfaces.js';

type Obj = Record<string, unknown>;

export interface RestListerWatcherOptions {
  /** Items per list page (client-go's pager default). */
  pageSize?: number;
  /** The watch's timeoutSeconds; client-go picks 5 to 10 minutes at random. */
  watchTimeoutSeconds?: number;
}

function revisionOf(obj: Obj): number {
  const rv = (obj['metadata'] as { resourceVersion?: string } | undefined)?.resourceVersion ?? '';
  const n = Number(rv);
  if (!Number.isSafeInteger(n) || n < 0) throw newInternalError(`unusable resourceVersion "${rv}"`);
  return n;
}

const changeTypes = new Set<string>(['ADDED', 'MODIFIED', 'DELETED']);

export class RestListerWatcher implements ListerWatcher {
  readonly #client: RestClient;
  readonly #path: string;
  readonly #pageSize: number;
  readonly #watchTimeoutSeconds: number;

  /** `path`: the collection, e.g. `/api/v1/namespaces` or `/apis/<group>/<version>/<resource>`. */
  constructor(client: RestClient, path: string, opts: RestListerWatcherOptions = {}) {
    this.#client = client;
    this.#path = path;
    this.#pageSize = opts.pageSize ?? 500;
    this.#watchTimeoutSeconds = opts.watchTimeoutSeconds ?? Math.floor(300 + Math.random() * 300);
  }

  async list(signal: AbortSignal): Promise<{ items: Obj[]; revision: number }> {
    const items: Obj[] = [];
    let revision = 0;
    let continueToken = '';
    do {
      signal.throwIfAborted();
      const q = new URLSearchParams({ limit: String(this.#pageSize) });
      if (continueToken) q.set('continue', continueToken);
      const page = await this.#client.request('GET', `${this.#path}?${q.toString()}`);
      items.push(...((page['items'] as Obj[] | undefined) ?? []));
      const meta = (page['metadata'] ?? {}) as { continue?: string };
      if (!continueToken) revision = revisionOf(page);
      continueToken = meta.continue ?? '';
    } while (continueToken);
    return { items, revision };
  }

  async watch(fromRevision: number, sink: WatchSink, signal: AbortSignal): Promise<void> {
    const q = new URLSearchParams({
      resourceVersion: String(fromRevision),
      allowWatchBookmarks: 'true',
      timeoutSeconds: String(this.#watchTimeoutSeconds),
    });
    const ended = new AbortController();
    const stop = (): void => ended.abort();
    signal.addEventListener('abort', stop, { once: true });
    let failure: StatusError | undefined;
    let last = fromRevision;
    try {
      await this.#client.watch(
        `${this.#path}?${q.toString()}`,
        (e) => {
          if (failure) return;
          if (e.type === 'ERROR') {
            failure = isStatus(e.object)
              ? new StatusError(e.object)
              : newInternalError('watch ended with an ERROR event that is not a Status');
            return stop();
          }
          const revision = revisionOf(e.object);
          if (e.type === 'BOOKMARK') {
            if (revision > last) sink.progress((last = revision));
            return;
          }
          if (!changeTypes.has(e.type) || revision <= last) return; // a repeat the server sent
          last = revision;
          sink.change(e.type as ChangeType, e.object, revision);
        },
        ended.signal
      );
    } finally {
      signal.removeEventListener('abort', stop);
    }
    if (failure) throw failure;
  }
}
