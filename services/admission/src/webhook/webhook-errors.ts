// The errors of a webhook call, as upstream tells them apart: a failure to call the webhook
// (failurePolicy decides), a rejection by the webhook (always fails the request), and the
// Status a rejection becomes. Upstream: k8s.io/apiserver/pkg/util/webhook/error.go
// (ErrCallingWebhook, ErrWebhookRejection) and k8s.io/apiserver/pkg/admission/plugin/webhook/
// errors/statuserror.go (ToStatusErr, NewDryRunUnsupportedErr).
import { StatusError, newBadRequest } from '@orch/apimachinery/errors';
import type { Status, StatusReason } from '@orch/apimachinery/errors';

/** The webhook could not be called or answered wrongly; failurePolicy decides. */
export class CallingWebhookError extends Error {
  override readonly name = 'CallingWebhookError';
  readonly webhookName: string;
  readonly reason: string;
  /** The HTTP status the webhook answered with, 0 when there was no answer. */
  readonly code: number;

  constructor(webhookName: string, reason: string, code = 0) {
    super(`failed calling webhook "${webhookName}": ${reason}`);
    this.webhookName = webhookName;
    this.reason = reason;
    this.code = code;
  }
}

/** The webhook answered `allowed: false`. */
export class WebhookRejectionError extends Error {
  override readonly name = 'WebhookRejectionError';
  readonly status: StatusError;

  constructor(status: StatusError) {
    super(status.message);
    this.status = status;
  }
}

const reasonsByCode: Record<number, StatusReason> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Gone',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** The part of a reply's `response.status` a denial uses. */
export interface ReplyStatus {
  code?: number;
  message?: string;
  reason?: string;
}

/**
 * A denial as the client sees it (upstream ToStatusErr): the reply's code, 403 when it gives
 * none, 400 for a code below 400 (a rejection is never a success); the message
 * `admission webhook "<name>" denied the request: <message or reason>`, or
 * `... denied the request without explanation`.
 */
export function toStatusErr(webhookName: string, result: ReplyStatus | undefined): StatusError {
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  let code = typeof result?.code === 'number' && Number.isInteger(result.code) ? result.code : 0;
  if (code === 0) code = 403;
  else if (code < 400 || code > 599) code = 400;
  const message = result?.message
    ? `${deniedBy}: ${result.message}`
    : result?.reason
      ? `${deniedBy}: ${result.reason}`
      : `${deniedBy} without explanation`;
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: (result?.reason as StatusReason | undefined) || (reasonsByCode[code] ?? ''),
    code,
  };
  return new StatusError(status);
}

/** A dry-run request that reaches a webhook with side effects (upstream NewDryRunUnsupportedErr). */
export function newDryRunUnsupportedErr(webhookName: string): StatusError {
  return newBadRequest(`admission webhook "${webhookName}" does not support dry run`);
}
