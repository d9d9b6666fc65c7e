// One client's watch: filters the type's changes by namespace, name and selectors, turns
// selector transitions into ADDED / DELETED, and writes events as a JSON stream.
import type { ServerResponse } from 'node:http';
import type { Status } from '@orch/apimachinery/errors';
import type { FieldSelector, LabelSelector } from '@orch/apimachinery/selectors';
import { fieldValue } from '@orch/apimachinery/selectors';
import type { WatchEvent } from '@orch/apimachinery/watch';
import type { Change, FeedListener } from './type-feed.js';

export interface WatchFilter {
  namespace?: string;
  name?: string;
  labels?: LabelSelector;
  fields?: FieldSelector;
}

type Json = Record<string, unknown>;
const metaOf = (o: Json | undefined): { name?: string; namespace?: string; labels?: Record<string, string> } =>
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
  const before = c.type === 'ADDED' ? false : matchesFilter(f, c.type === 'DELETED' ? c.object : c.prevObject);
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
 * The JSON of an object, encoded once however many watchers send it (k8s cachingObject): the
 * objects of changes are shared by every watcher of a type and never mutated.
 */
const encoded = new WeakMap<object, string>();
function encodedObject(o: object): string {
  let json = encoded.get(o);
  if (json === undefined) {
    json = JSON.stringify(o);
    encoded.set(o, json);
  }
  return json;
}

export class Watcher implements FeedListener {
  readonly #res: ServerResponse;
  readonly #filter: WatchFilter;
  readonly #bookmarks: boolean;
  readonly #typeMeta: { apiVersion: string; kind: string };
  readonly #onEvent: (() => void) | undefined;
  readonly #encode: (e: WatchEvent) => string | Buffer;
  #closed = false;
  #onClose: (() => void)[] = [];

  constructor(
    res: ServerResponse,
    filter: WatchFilter,
    opts: { bookmarks: boolean; apiVersion: string; kind: string; onEvent?: () => void; encode?: (e: WatchEvent) => string | Buffer }
  ) {
    this.#res = res;
    this.#filter = filter;
    this.#bookmarks = opts.bookmarks;
    this.#typeMeta = { apiVersion: opts.apiVersion, kind: opts.kind };
    this.#onEvent = opts.onEvent;
    this.#encode = opts.encode ?? ((e) => `{"type":${JSON.stringify(e.type)},"object":${encodedObject(e.object)}}\n`);
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
    this.#res.write(this.#encode(e));
    this.#onEvent?.();
  }

  change(c: Change): void {
    const e = eventFor(this.#filter, c);
    if (e) this.send(e);
  }

  progress(revision: number): void {
    if (!this.#bookmarks) return;
    this.send({ type: 'BOOKMARK', object: { ...this.#typeMeta, metadata: { resourceVersion: String(revision) } } });
  }

  fail(status: Status): void {
    this.send({ type: 'ERROR', object: status });
    this.close();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (!this.#res.writableEnded) this.#res.end();
    for (const fn of this.#onClose) fn();
    this.#onClose = [];
  }
}
