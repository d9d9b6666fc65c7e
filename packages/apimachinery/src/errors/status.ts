// The Status object and its reasons, as clients of this ecosystem parse them
// (k8s.io/apimachinery/pkg/apis/meta/v1 Status, StatusReason).

export type StatusReason =
  | ''
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'ServerTimeout'
  | 'Timeout'
  | 'TooManyRequests'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'Expired'
  | 'ServiceUnavailable';

export type CauseType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueTypeInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'UnexpectedServerResponse'
  | 'FieldManagerConflict'
  | 'ResourceVersionTooLarge';

export interface StatusCause {
  reason?: CauseType | string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never> | { resourceVersion?: string };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

export function isStatus(value: unknown): value is Status {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'Status' &&
    typeof (value as { code?: unknown }).code === 'number'
  );
}

/**
 * A Status with its fields in the order upstream's Go types write them (metav1.Status: kind,
 * apiVersion, metadata, status, message, reason, details, code; StatusDetails: name, group,
 * kind, uid, causes, retryAfterSeconds; StatusCause: reason, message, field), the omitempty ones
 * left out when empty, so that the bytes of a body are upstream's.
 */
export function statusInWireOrder(s: Status): Status {
  // `status` and `code` are left out when empty too, which the type does not say
  return {
    kind: s.kind,
    apiVersion: s.apiVersion,
    metadata: s.metadata ?? {},
    ...(s.status ? { status: s.status } : {}),
    ...(s.message ? { message: s.message } : {}),
    ...(s.reason ? { reason: s.reason } : {}),
    ...(s.details ? { details: detailsInWireOrder(s.details) } : {}),
    ...(s.code ? { code: s.code } : {}),
  } as Status;
}

function detailsInWireOrder(d: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.uid) out.uid = d.uid;
  if (d.causes && d.causes.length > 0)
    out.causes = d.causes.map((c) => {
      const cause: StatusCause = {};
      if (c.reason) cause.reason = c.reason;
      if (c.message) cause.message = c.message;
      if (c.field) cause.field = c.field;
      return cause;
    });
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}
