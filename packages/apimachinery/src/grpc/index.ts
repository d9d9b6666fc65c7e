export type {
  Consistency,
  HistoryEvent,
  ListRequest,
  ListResponse,
  Preconditions,
  StorageClientOptions,
} from './storage-client.js';
export { StorageClient } from './storage-client.js';
