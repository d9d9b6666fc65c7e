export type { StorageClientOptions } from './storage-client.js';
export { StorageClient } from './storage-client.js';
export type { CallDuplex, CallErrorMessage, CallStreamOptions } from './call-stream.js';
export { CallStream } from './call-stream.js';
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
export type { AdmissionClientOptions } from './admission-client.js';
export { AdmissionClient } from './admission-client.js';
export type {
  AdmissionCallRequest,
  AdmissionOperation,
  AdmissionPhaseName,
  AdmitCall,
  AdmitResult,
} from './admission-mapping.js';
export {
  AdmissionMappingError,
  admitCallFromProto,
  admitCallToProto,
  admitResultFromProto,
  admitResultToProto,
  podSecurityScopeFromProto,
  podSecurityScopeToProto,
} from './admission-mapping.js';
export type { CertificatesClientOptions } from './certificates-client.js';
export { CertificatesClient } from './certificates-client.js';
