// The NATS message the storage publisher sends for every change, and the periodic progress
// message, one subject per resource type. `prevRevision` chains the messages of one subject so
// that a subscriber sees a lost message; 0 means the chain (re)starts here (a new publisher).

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ChangeMessage {
  type: ChangeType;
  key: string;
  revision: number;
  prevRevision: number;
  /** The publisher's term: a new epoch restarts the chain (prevRevision counts within one epoch). */
  epoch: string;
  /** The object after the change; for DELETED its last state. resourceVersion is set. */
  object: Record<string, unknown>;
  /** The object before the change (MODIFIED, DELETED). */
  prevObject?: Record<string, unknown>;
}

/** Everything up to `revision` has been published; the last change on this subject was `prevRevision`. */
export interface ProgressMessage {
  type: 'PROGRESS';
  revision: number;
  prevRevision: number;
  epoch: string;
}

export type WatchMessage = ChangeMessage | ProgressMessage;

export const watchSubjectRoot = 'orch.watch';

/**
 * The subject a gateway asks the publisher for progress on, now rather than at its next interval
 * (etcd's RequestProgress, which upstream's cacher sends while consistent reads wait). Outside
 * `orch.watch.>`, so no change stream sees it. The message has no body; the publisher answers by
 * writing its checkpoint, whose progress then reaches every subject.
 */
export const progressRequestSubject = 'orch.progress.request';

/**
 * The subject a gateway asks the publisher on for the revision a consistent read must reach
 * (instead of a quorum read of etcd through storage). The answer is the revision through which
 * the publisher has handed every change to NATS, as ASCII digits, sent on the connection those
 * changes went out on and after them; an empty answer means the publisher cannot vouch for it
 * now (it is catching up, or not sure it still leads), and the caller reads storage instead.
 * The proof is in docs/architecture.md, "Consistent reads".
 */
export const revisionRequestSubject = 'orch.publisher.revision';

/**
 * The subject the publisher announces on, once per batch handed to NATS, the revision through
 * which it has published every change (ASCII digits). A storage replica answers a write once
 * this has reached the write's revision, so that an answer on revisionRequestSubject covers
 * every acknowledged write.
 */
export const publishedSubject = 'orch.publisher.published';

/**
 * The subject of a storage key prefix `/registry/<group>/<resource>/...`: `orch.watch.<group>.<resource>`
 * (group dots replaced by `_` so that every subject has exactly four tokens).
 */
export function subjectForKey(key: string): string | undefined {
  const parts = key.split('/');
  // ['', 'registry', group, resource, ...]
  if (parts.length < 5 || parts[1] !== 'registry' || !parts[2] || !parts[3]) return undefined;
  return `${watchSubjectRoot}.${parts[2].replaceAll('.', '_')}.${parts[3]}`;
}

export function encodeWatchMessage(m: WatchMessage): Uint8Array {
  return Buffer.from(JSON.stringify(m));
}

const objectField = Buffer.from(',"object":');
const prevObjectField = Buffer.from(',"prevObject":');
const closingBrace = Buffer.from('}');

/**
 * The bytes of a ChangeMessage whose objects are given as the JSON storage holds (with
 * resourceVersion set): the text encodeWatchMessage writes for the same message, built without
 * parsing the objects and writing them again (the publisher forwards what etcd gave).
 */
export function encodeChangeMessage(
  head: Omit<ChangeMessage, 'object' | 'prevObject'>,
  object: Uint8Array,
  prevObject?: Uint8Array
): Buffer {
  const { type, key, revision, prevRevision, epoch } = head;
  const start = JSON.stringify({ type, key, revision, prevRevision, epoch });
  const parts = [Buffer.from(start.slice(0, -1)), objectField, object];
  if (prevObject) parts.push(prevObjectField, prevObject);
  parts.push(closingBrace);
  return Buffer.concat(parts);
}

export function decodeWatchMessage(data: Uint8Array): WatchMessage {
  return JSON.parse(
    Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8')
  ) as WatchMessage;
}
