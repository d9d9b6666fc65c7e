export type { CauseType, Status, StatusCause, StatusDetails, StatusReason } from './status.js';
export { isStatus } from './status.js';
export type { FieldError, GroupResource } from './status-error.js';
export {
  StatusError,
  fieldErrorMessage,
  isAlreadyExists,
  isConflict,
  isGone,
  isInvalid,
  isNotFound,
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newForbidden,
  newGone,
  newInternalError,
  newInvalid,
  newMethodNotSupported,
  newNotAcceptable,
  newNotFound,
  newRequestEntityTooLarge,
  newResourceExpired,
  newServiceUnavailable,
  newSuccess,
  newTimeout,
  newTooLargeResourceVersion,
  newTooManyRequests,
  newUnauthorized,
  newUnsupportedMediaType,
  reasonForError,
  toStatusError,
} from './status-error.js';
export { fromGrpcError, toGrpcError } from './grpc-status.js';
