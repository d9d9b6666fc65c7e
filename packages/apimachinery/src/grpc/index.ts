export type { DecodedHistoryEvent, ListResponse, StorageClientOptions } from './storage-client.js';
export { StorageClient } from './storage-client.js';
// Kept for the gateway's handlers/list-options.ts (switched to @orch/apimachinery/storage after
// the merge of the rest branch); the types themselves live in ../storage.
export type { Consistency, ListOptions as ListRequest } from '../storage/index.js';
export {
  consistencyFromProto,
  consistencyToProto,
  historyEventFromProto,
  historyEventToProto,
  historyProgressFromProto,
  historyProgressToProto,
  listOptionsFromProto,
  listOptionsToProto,
  listResultFromProto,
  listResultToProto,
  preconditionsFromProto,
  preconditionsToProto,
} from './storage-mapping.js';
export type { AuthorizerClientOptions } from './authorizer-client.js';
export { AuthorizerClient } from './authorizer-client.js';
export {
  attributesFromProto,
  attributesToProto,
  authorizationResultFromProto,
  authorizationResultToProto,
  rulesReviewFromProto,
  rulesReviewToProto,
  userFromProto,
  userToProto,
} from './authorizer-mapping.js';
