// What a storage client offers its users (k8s apiserver/pkg/storage.Interface): reads and writes
// of one object by key with revision preconditions, lists of a key prefix, the current revision
// and a type's history. The gRPC client of the storage service implements it; so does the
// in-memory storage of the tests (`@orch/testing/memory-storage`), which a contract test keeps
// answering as the service does. Objects go in and come out as decoded JSON, with
// metadata.resourceVersion set to the revision they were written at.
import type { HistoryEvent } from './history-event.js';
import type { Consistency, ListOptions, ListResult, Preconditions } from './list-options.js';

type Json = Record<string, unknown>;

/** A list with each item decoded. */
export type ListResponse = Omit<ListResult, 'items'> & { items: Json[] };

/** A change of a replayed history with its objects decoded. */
export type DecodedHistoryEvent = Omit<HistoryEvent, 'object' | 'prevObject'> & {
  object: Json;
  prevObject?: Json;
};

export interface StorageInterface {
  /** The object at key (NotFound when there is none), read as consistency asks. */
  get(key: string, consistency: Consistency, revision?: number): Promise<Json>;
  list(req: ListOptions): Promise<ListResponse>;
  /** A list with each item as the JSON bytes storage answered (for answers that pass them on). */
  listRaw(req: ListOptions): Promise<ListResult>;
  /** Stores a new object (AlreadyExists when the key is taken); answers it as stored. */
  create(key: string, object: Json): Promise<Json>;
  /** Replaces the object when the preconditions hold (NotFound, Conflict otherwise). */
  update(key: string, object: Json, pre: Preconditions): Promise<Json>;
  /** Removes the object when the preconditions hold; answers it at the deletion's revision. */
  delete(key: string, pre: Preconditions): Promise<{ object: Json; revision: number }>;
  /** The store's current revision (a quorum read). */
  currentRevision(): Promise<number>;
  /** Replays the changes of a type after a revision; resolves with the revision it is complete up to. */
  history(
    prefix: string,
    afterRevision: number,
    onEvent: (e: DecodedHistoryEvent) => void
  ): Promise<number>;
}
