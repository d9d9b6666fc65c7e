// One change of a type as the gateway's watchers receive it, and what a watcher implements to
// receive them (k8s storage watch.Event and the cacheWatcher's input).
import type { Status } from '@orch/apimachinery/errors';

export interface Change {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  revision: number;
  object: Record<string, unknown>;
  /** The object before the change (MODIFIED, DELETED), for selector transitions. */
  prevObject?: Record<string, unknown>;
}

/** What the watch cache needs of a watcher. */
export interface FeedListener {
  change(c: Change): void;
  progress(revision: number): void;
  fail(status: Status): void;
}
