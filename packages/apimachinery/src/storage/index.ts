export type { HistoryEvent, HistoryEventType } from './history-event.js';
export type { Consistency, ListOptions, ListResult, Preconditions } from './list-options.js';
export { decodeContinue, encodeContinue } from './continue-token.js';
