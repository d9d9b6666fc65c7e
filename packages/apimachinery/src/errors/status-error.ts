import type { CauseType, Status, StatusCause, StatusDetails, StatusReason } from './status.js';

const statusErrorMarker = Symbol.for('orch.StatusError');

/**
 * An error that is a Status: carried unchanged across gRPC (as status details) and written to
 * HTTP clients as the Status body. Predicates read `status.reason`, never the message.
 */
export class StatusError extends Error {
  override readonly name = 'StatusError';
  readonly status: Status;
  readonly [statusErrorMarker] = true;

  constructor(status: Status) {
    super(status.message ?? status.reason ?? 'unknown error');
    this.status = status;
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): StatusReason {
    return this.status.reason ?? '';
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && statusErrorMarker in value;
  }
}

/** Group and resource of the object an error is about, for `details`. */
export interface GroupResource {
  group: string;
  resource: string;
}

function failure(
  code: number,
  reason: StatusReason,
  message: string,
  details?: StatusDetails
): StatusError {
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
  };
  if (details) status.details = withoutEmpty(details);
  return new StatusError(status);
}

/**
 * The details as upstream serializes them: `name`, `group`, `kind` and `uid` are `omitempty`
 * in metav1.StatusDetails, so an empty one (a list's name, the core group) is left out.
 */
function withoutEmpty(details: StatusDetails): StatusDetails {
  const out: StatusDetails = { ...details };
  for (const key of ['name', 'group', 'kind', 'uid'] as const) if (out[key] === '') delete out[key];
  return out;
}

function qualified(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

function detailsFor(gr: GroupResource, name: string, causes?: StatusCause[]): StatusDetails {
  const details: StatusDetails = { name, group: gr.group, kind: gr.resource };
  if (causes && causes.length > 0) details.causes = causes;
  return details;
}

export function newNotFound(gr: GroupResource, name: string): StatusError {
  return failure(404, 'NotFound', `${qualified(gr)} "${name}" not found`, detailsFor(gr, name));
}

/** A path nothing serves (k8s' NotFound handler): no resource to name, details empty. */
export function newPathNotFound(): StatusError {
  return failure(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function newAlreadyExists(gr: GroupResource, name: string): StatusError {
  return failure(
    409,
    'AlreadyExists',
    `${qualified(gr)} "${name}" already exists`,
    detailsFor(gr, name)
  );
}

export function newConflict(gr: GroupResource, name: string, why: string): StatusError {
  return failure(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualified(gr)} "${name}": ${why}`,
    detailsFor(gr, name)
  );
}

/** One field error, as k8s field.Error: rendered into a cause. */
export interface FieldError {
  type: CauseType;
  field: string;
  message: string;
  value?: unknown;
}

export function fieldErrorMessage(e: FieldError): string {
  const value = e.value === undefined ? '' : `: ${JSON.stringify(e.value)}`;
  return `${e.field}: ${describeCause(e.type)}${value}${e.message ? `: ${e.message}` : ''}`;
}

function describeCause(t: CauseType): string {
  switch (t) {
    case 'FieldValueRequired':
      return 'Required value';
    case 'FieldValueNotFound':
      return 'Not found';
    case 'FieldValueDuplicate':
      return 'Duplicate value';
    case 'FieldValueNotSupported':
      return 'Unsupported value';
    case 'FieldValueForbidden':
      return 'Forbidden';
    case 'FieldValueTooLong':
      return 'Too long';
    case 'FieldValueTooMany':
      return 'Too many';
    default:
      return 'Invalid value';
  }
}

export function newInvalid(
  kind: { group: string; kind: string },
  name: string,
  errors: FieldError[]
): StatusError {
  const causes = errors.map((e) => ({
    reason: e.type,
    message: fieldErrorMessage(e).slice(e.field.length + 2),
    field: e.field,
  }));
  const summary = errors.map(fieldErrorMessage).join(', ');
  const what = kind.group ? `${kind.kind}.${kind.group}` : kind.kind;
  return failure(422, 'Invalid', `${what} "${name}" is invalid: ${summary}`, {
    name,
    group: kind.group,
    kind: kind.kind,
    causes,
  });
}

/**
 * 422 for a request that cannot be applied (k8s `NewGenericServerResponse` with 422, as a JSON
 * patch that does not apply): the reason in a cause without a field, since it names none.
 */
export function newUnprocessableEntity(serverMessage: string): StatusError {
  return failure(422, 'Invalid', 'the server rejected our request due to an error in our request', {
    name: '',
    group: '',
    kind: '',
    causes: [{ reason: 'UnexpectedServerResponse', message: serverMessage }],
  });
}

export function newBadRequest(message: string, causes?: StatusCause[]): StatusError {
  return failure(400, 'BadRequest', message, causes ? { causes } : undefined);
}

export function newUnauthorized(message: string): StatusError {
  return failure(401, 'Unauthorized', message);
}

export function newForbidden(gr: GroupResource, name: string, why: string): StatusError {
  const target = name ? `${qualified(gr)} "${name}"` : qualified(gr);
  return failure(403, 'Forbidden', `${target} is forbidden: ${why}`, detailsFor(gr, name));
}

/**
 * A method no route of the path takes (go-restful's 405, written by k8s' serviceErrorHandler
 * through NewGenericServerResponse): no resource to name, details empty.
 */
export function newMethodNotAllowed(): StatusError {
  return failure(
    405,
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
    {}
  );
}

export function newMethodNotSupported(gr: GroupResource, action: string): StatusError {
  return failure(
    405,
    'MethodNotAllowed',
    `${action} is not supported on resources of kind "${qualified(gr)}"`,
    {
      group: gr.group,
      kind: gr.resource,
    }
  );
}

export function newNotAcceptable(accepted: string[]): StatusError {
  return failure(
    406,
    'NotAcceptable',
    `only the following media types are accepted: ${accepted.join(', ')}`
  );
}

export function newUnsupportedMediaType(contentType: string, supported: string[]): StatusError {
  return failure(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${supported.join(', ')}`,
    {
      causes: [
        {
          reason: 'FieldValueNotSupported',
          message: `content type ${JSON.stringify(contentType)}`,
          field: 'Content-Type',
        },
      ],
    }
  );
}

export function newRequestEntityTooLarge(message: string): StatusError {
  return failure(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
}

/** 410 Gone: the requested history is no longer kept. */
export function newGone(message: string): StatusError {
  return failure(410, 'Gone', message);
}

/** 410 Expired: a continue token or resourceVersion that is too old. */
export function newResourceExpired(message: string): StatusError {
  return failure(410, 'Expired', message);
}

export function newTimeout(message: string, retryAfterSeconds: number): StatusError {
  return failure(504, 'Timeout', message, { retryAfterSeconds });
}

/** 504 for a get or list of a resourceVersion the store has not reached in time. */
export function newTooLargeResourceVersion(
  requested: number,
  current: number,
  retryAfterSeconds: number
): StatusError {
  return failure(504, 'Timeout', `Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds,
  });
}

export function newTooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  return failure(429, 'TooManyRequests', message, { retryAfterSeconds });
}

export function newServiceUnavailable(message: string): StatusError {
  return failure(503, 'ServiceUnavailable', message);
}

export function newInternalError(err: unknown): StatusError {
  const message = err instanceof Error ? err.message : String(err);
  return failure(500, 'InternalError', `Internal error occurred: ${message}`, {
    causes: [{ message }],
  });
}

export function newSuccess(details?: StatusDetails): Status {
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    code: 200,
  };
  if (details) status.details = withoutEmpty(details);
  return status;
}

export function reasonForError(err: unknown): StatusReason {
  return err instanceof StatusError ? err.reason : '';
}

export const isNotFound = (err: unknown): boolean => reasonForError(err) === 'NotFound';
export const isAlreadyExists = (err: unknown): boolean => reasonForError(err) === 'AlreadyExists';
export const isConflict = (err: unknown): boolean => reasonForError(err) === 'Conflict';
export const isInvalid = (err: unknown): boolean => reasonForError(err) === 'Invalid';
export const isGone = (err: unknown): boolean =>
  reasonForError(err) === 'Gone' || reasonForError(err) === 'Expired';

/** Any error as a StatusError: a StatusError as is, anything else as an InternalError. */
export function toStatusError(err: unknown): StatusError {
  return err instanceof StatusError ? err : newInternalError(err);
}
