export type { CauseType, Status, StatusCause, StatusDetails, StatusReason } from './status.js';
export { isStatus, statusInWireOrder } from './status.js';
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
  newPathNotFound,
  newRequestEntityTooLarge,
  newResourceExpired,
  newServiceUnavailable,
  newSuccess,
  newTimeout,
  newTooLargeResourceVersion,
  newTooManyRequests,
  newUnauthorized,
  newUnprocessableEntity,
  newUnsupportedMediaType,
  reasonForError,
  toStatusError,
} from './status-error.js';
export {
  FieldPath,
  fieldDuplicate,
  fieldForbidden,
  fieldInvalid,
  fieldNotFound,
  fieldNotSupported,
  fieldRequired,
  fieldTooLong,
  fieldTooMany,
  newPath,
} from './field-errors.js';
export { fieldTypeInvalid } from './field-type-invalid.js';
export { fromGrpcError, toGrpcError } from './grpc-status.js';
