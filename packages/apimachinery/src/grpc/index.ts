export type {
  Consistency,
  HistoryEvent,
  ListRequest,
  ListResponse,
  RawListResponse,
  Preconditions,
  StorageClientOptions,
} from './storage-client.js';
export { StorageClient } from './storage-client.js';
export type {
  AuthorizeAttributes,
  AuthorizeResult,
  Decision,
  AuthorizeUser,
  AuthorizerClientOptions,
  NonResourceRuleInfo,
  ResourceRuleInfo,
  RulesReviewResult,
} from './authorizer-client.js';
export { AuthorizerClient } from './authorizer-client.js';
