// The one mapping between the storage service's proto messages (orch.storage.v1) and the
// `@orch/apimachinery/storage` types, one function pair per message family: the client sends
// with the *ToProto functions and reads with the *FromProto ones, the service the other way.
import type {
  Consistency as ProtoConsistency,
  Event,
  Event__Output,
  GetListRequest,
  GetListRequest__Output,
  GetListResponse,
  GetListResponse__Output,
  Preconditions as ProtoPreconditions,
  Preconditions__Output,
} from '@orch/proto';
import type {
  Consistency,
  HistoryEvent,
  HistoryEventType,
  ListOptions,
  ListResult,
  Preconditions,
} from '../storage/index.js';

export function consistencyToProto(c: Consistency): ProtoConsistency {
  return `CONSISTENCY_${c}`;
}

/** Anything unknown reads as MOST_RECENT, the strongest read. */
export function consistencyFromProto(c: ProtoConsistency | string): Consistency {
  switch (c) {
    case 'CONSISTENCY_ANY':
      return 'ANY';
    case 'CONSISTENCY_NOT_OLDER_THAN':
      return 'NOT_OLDER_THAN';
    case 'CONSISTENCY_EXACT':
      return 'EXACT';
    default:
      return 'MOST_RECENT';
  }
}

export function listOptionsToProto(o: ListOptions): GetListRequest {
  return {
    prefix: o.prefix,
    consistency: consistencyToProto(o.consistency),
    revision: o.revision ?? 0,
    limit: o.limit ?? 0,
    continue: o.continueToken ?? '',
    label_selector: o.labelSelector ?? '',
    field_selector: o.fieldSelector ?? '',
  };
}

export function listOptionsFromProto(r: GetListRequest__Output): ListOptions {
  return {
    prefix: r.prefix,
    consistency: consistencyFromProto(r.consistency),
    revision: r.revision,
    limit: r.limit,
    continueToken: r.continue,
    labelSelector: r.label_selector,
    fieldSelector: r.field_selector,
  };
}

export function listResultToProto(r: ListResult): GetListResponse {
  return {
    items: r.items,
    revision: r.revision,
    continue: r.continueToken,
    remaining_item_count: r.remainingItemCount,
  };
}

export function listResultFromProto(res: GetListResponse__Output): ListResult {
  return {
    items: res.items,
    revision: res.revision,
    continueToken: res.continue,
    remainingItemCount: res.remaining_item_count,
  };
}

export function preconditionsToProto(p: Preconditions): ProtoPreconditions {
  return { uid: p.uid ?? '', revision: p.revision ?? 0 };
}

/** An absent message is no precondition. */
export function preconditionsFromProto(p: Preconditions__Output | null | undefined): Preconditions {
  return { uid: p?.uid ?? '', revision: p?.revision ?? 0 };
}

export function historyEventToProto(e: HistoryEvent): Event {
  return {
    type: `EVENT_TYPE_${e.type}`,
    key: e.key,
    revision: e.revision,
    object: e.object,
    prev_object: e.prevObject ?? Buffer.alloc(0),
  };
}

/** The last message of a History stream: every change up to `revision` was sent. */
export function historyProgressToProto(revision: number): Event {
  return { type: 'EVENT_TYPE_PROGRESS', revision };
}

/** A change of the stream; undefined for the progress message (see `historyProgressFromProto`). */
export function historyEventFromProto(e: Event__Output): HistoryEvent | undefined {
  if (e.type === 'EVENT_TYPE_PROGRESS' || e.type === 'EVENT_TYPE_UNSPECIFIED') return undefined;
  const ev: HistoryEvent = {
    type: e.type.slice('EVENT_TYPE_'.length) as HistoryEventType,
    key: e.key,
    revision: e.revision,
    object: e.object,
  };
  if (e.prev_object.length > 0) ev.prevObject = e.prev_object;
  return ev;
}

/** The revision a progress message says the replay is complete up to; undefined for a change. */
export function historyProgressFromProto(e: Event__Output): number | undefined {
  return e.type === 'EVENT_TYPE_PROGRESS' ? e.revision : undefined;
}
