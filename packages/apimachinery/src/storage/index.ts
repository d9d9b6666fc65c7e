export type { HistoryEvent, HistoryEventType } from './history-event.js';
export type { Consistency, ListOptions, ListResult, Preconditions } from './list-options.js';
export type { DecodedHistoryEvent, ListResponse, StorageInterface } from './storage-interface.js';
export { decodeContinue, encodeContinue } from './continue-token.js';
export type { RangePage, RangeSource } from './paged-list.js';
export { pagedList } from './paged-list.js';
export { RevisionReader } from './revision-reader.js';
export {
  decodeFromStorage,
  encodeForStorage,
  groupResourceOf,
  isTypePrefix,
  prefixEnd,
  validatePrefix,
  withResourceVersion,
} from './keys.js';
