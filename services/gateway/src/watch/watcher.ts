// One client's watch: filters the type's changes by namespace, name and selectors, turns
// selector transitions into ADDED / DELETED, and writes events as a JSON stream.
import type { HttpResponse } from '../http/handler.js';
import type { Status } from '@orch/apimachinery/errors';
import type { FieldSelector, LabelSelector } from '@orch/apimachinery/selectors';
import { fieldValue } from '@orch/apimachinery/selectors';
import type { WatchEvent } from '@orch/apimachinery/watch';
import type { Change, FeedListener } from './change.js';
import { cachedJson } from './cached-json.js';

export interface WatchFilter {
  namespace?: string;
  name?: string;
  labels?: LabelSelector;
  fields?: FieldSelector;
}

type Json = Record<string, unknown>;
const metaOf = (
  o: Json | undefined
): { name?: string; namespace?: string; labels?: Record<string, string> } =>
  (o?.['metadata'] ?? {}) as { name?: string; namespace?: string; labels?: Record<string, string> };

export function matchesFilter(f: WatchFilter, obj: Json | undefined): boolean {
  if (!obj) return false;
  const m = metaOf(obj);
  if (f.namespace && m.namespace !== f.namespace) return false;
  if (f.name && m.name !== f.name) return false;
  if (f.labels && !f.labels.matches(m.labels)) return false;
  if (f.fields && !f.fields.matches((p) => fieldValue(obj, p))) return false;
  return true;
}

/** The event a watcher with this filter sees for a change, if any (k8s cacheWatcher.convertToWatchEvent). */
export function eventFor(f: WatchFilter, c: Change): WatchEvent | undefined {
  const now = c.type === 'DELETED' ? false : matchesFilter(f, c.object);
  const before =
    c.type === 'ADDED' ? false : matchesFilter(f, c.type === 'DELETED' ? c.object : c.prevObject);
  if (now && before) return { type: 'MODIFIED', object: c.object };
  if (now) return { type: 'ADDED', object: c.object };
  if (before) {
    // For a DELETED event the object is its last state at the deletion revision.
    if (c.type === 'DELETED') return { type: 'DELETED', object: c.object };
    const gone = structuredClone(c.object);
    return { type: 'DELETED', object: gone };
  }
  return undefined;
}

/**
 * The JSON line of an event, encoded once however many watchers send it (k8s cachingObject):
 * the objects of changes are shared by every watcher of a type and never mutated, and the
 * object's bytes are the ones lists from the cache write too (cachedJson).
 */
const encoded = new WeakMap<object, Partial<Record<WatchEvent['type'], Buffer>>>();
const eventHeads = new Map<string, Buffer>();
const eventTail = Buffer.from('}\n');
function encodedEvent(e: WatchEvent): Buffer {
  let byType = encoded.get(e.object);
  if (!byType) encoded.set(e.object, (byType = {}));
  let head = eventHeads.get(e.type);
  if (!head)
    eventHeads.set(e.type, (head = Buffer.from(`{"type":${JSON.stringify(e.type)},"object":`)));
  return (byType[e.type] ??= Buffer.concat([head, cachedJson(e.object), eventTail]));
}

/**
 * A watcher writes at most this often. A change after a quiet spell goes out at once (on the
 * next turn of the event loop); under a stream of changes, the events of each interval go out
 * in one write, one TLS record and one system call instead of one each.
 */
export const watchFlushIntervalMs = 5;

export class Watcher implements FeedListener {
  readonly #res: HttpResponse;
  readonly #filter: WatchFilter;
  readonly #bookmarks: boolean;
  readonly #typeMeta: { apiVersion: string; kind: string };
  readonly #onEvent: (() => void) | undefined;
  readonly #encode: (e: WatchEvent) => string | Buffer;
  #closed = false;
  #onClose: (() => void)[] = [];
  #pending: (string | Buffer)[] = [];
  #flushScheduled = false;
  #lastFlush = 0;

  constructor(
    res: HttpResponse,
    filter: WatchFilter,
    opts: {
      bookmarks: boolean;
      apiVersion: string;
      kind: string;
      onEvent?: () => void;
      encode?: (e: WatchEvent) => string | Buffer;
    }
  ) {
    this.#res = res;
    this.#filter = filter;
    this.#bookmarks = opts.bookmarks;
    this.#typeMeta = { apiVersion: opts.apiVersion, kind: opts.kind };
    this.#onEvent = opts.onEvent;
    this.#encode = opts.encode ?? encodedEvent;
    res.on('close', () => this.close());
  }

  get closed(): boolean {
    return this.#closed;
  }

  onClose(fn: () => void): void {
    if (this.#closed) fn();
    else this.#onClose.push(fn);
  }

  send(e: WatchEvent): void {
    if (this.#closed) return;
    this.#pending.push(this.#encode(e));
    this.#onEvent?.();
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    const wait = this.#lastFlush + watchFlushIntervalMs - performance.now();
    if (wait <= 0) setImmediate(this.#flush);
    else setTimeout(this.#flush, wait);
  }

  readonly #flush = (): void => {
    this.#flushScheduled = false;
    if (this.#pending.length === 0 || this.#res.writableEnded) return;
    this.#lastFlush = performance.now();
    const chunks = this.#pending;
    this.#pending = [];
    this.#res.write(
      chunks.length === 1
        ? chunks[0]!
        : Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)))
    );
  };

  change(c: Change): void {
    const e = eventFor(this.#filter, c);
    if (e) this.send(e);
  }

  progress(revision: number): void {
    if (!this.#bookmarks) return;
    this.send({
      type: 'BOOKMARK',
      object: { ...this.#typeMeta, metadata: { resourceVersion: String(revision) } },
    });
  }

  fail(status: Status): void {
    this.send({ type: 'ERROR', object: status });
    this.close();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#flush();
    if (!this.#res.writableEnded) this.#res.end();
    for (const fn of this.#onClose) fn();
    this.#onClose = [];
  }
}
