// One change of a replayed history (the storage service's History RPC), as storage reads it
// from etcd: the object as stored JSON bytes, resourceVersion set to the change's revision.

export type HistoryEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface HistoryEvent {
  type: HistoryEventType;
  key: string;
  revision: number;
  object: Buffer;
  /** The object before a MODIFIED or DELETED, when etcd kept it. */
  prevObject?: Buffer;
}
