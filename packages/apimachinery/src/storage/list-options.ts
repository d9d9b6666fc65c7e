// What a read of storage asks for and what a list answers (k8s apiserver/pkg/storage
// ListOptions, GetOptions, Preconditions): used by the gateway to build its reads, by the
// storage gRPC client to send them and by the storage service to serve them.

/**
 * Which revision a read may be served at (the spec's resourceVersion tables): the latest by a
 * quorum read, any the server has, one at least as new as `revision`, or exactly `revision`.
 */
export type Consistency = 'MOST_RECENT' | 'ANY' | 'NOT_OLDER_THAN' | 'EXACT';

/** A list of the objects under a key prefix (k8s storage.ListOptions). */
export interface ListOptions {
  prefix: string;
  consistency: Consistency;
  /** For NOT_OLDER_THAN and EXACT. */
  revision?: number;
  /** 0 or unset: no limit. */
  limit?: number;
  continueToken?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** A page of a list, each item as the JSON bytes stored (resourceVersion set). */
export interface ListResult {
  items: Buffer[];
  revision: number;
  continueToken: string;
  /** -1 when not known (complete, or filtered by a selector). */
  remainingItemCount: number;
}

/** What a write requires of the stored object (k8s storage.Preconditions); 0 or '' is none. */
export interface Preconditions {
  uid?: string;
  revision?: number;
}
