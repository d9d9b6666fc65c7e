// What both webhook plugins do per webhook: decide whether to call it (rules, selectors,
// matchConditions), refuse a dry run it cannot take, call it, check the reply, pass its
// warnings and audit annotations on, and turn a denial into its Status. Upstream:
// k8s.io/apiserver/pkg/admission/plugin/webhook/generic/webhook.go (ShouldCallHook) and the
// call halves of mutating/dispatcher.go and validating/dispatcher.go.
import { randomUUID } from 'node:crypto';

import { newInternalError, StatusError } from '@orch/apimachinery/errors';

import type { AdmissionContext, AdmissionRequest } from '../interfaces.js';
import { versionedRequest } from '../matching/index.js';
import type { Matcher, MatchedResource } from '../matching/index.js';
import type { Logger } from '@orch/component-base/logs';

import type { AdmissionResponse } from './admission-review.js';
import { createAdmissionReview, verifyAdmissionResponse } from './admission-review.js';
import { InvalidReplyError, ReplyStatusError } from '@orch/apimachinery/webhook';
import {
  CallingWebhookError,
  WebhookRejectionError,
  newDryRunUnsupportedErr,
  toStatusErr,
} from './webhook-errors.js';
import type { WebhookMetrics, WebhookStepType } from './webhook-metrics.js';
import type { CompiledWebhook } from './webhook-source.js';

/**
 * A webhook to call and the request as it sees it (upstream WebhookInvocation with the
 * versioned attributes): the resource and kind its rules matched, and the request with its
 * objects converted to that kind's version.
 */
export interface WebhookInvocation extends MatchedResource {
  readonly request: AdmissionRequest;
}

/**
 * The invocation when the webhook is to be called, else undefined. Throws the StatusError of a selector or namespace
 * problem (when the rules match), or of matchConditions that cannot be evaluated under
 * failurePolicy Fail (403, as upstream's "failing closed"); under Ignore such a webhook is
 * skipped.
 */
export async function shouldCallHook(
  matcher: Matcher,
  hook: CompiledWebhook,
  req: AdmissionRequest,
  log: Logger
): Promise<WebhookInvocation | undefined> {
  await matcher.prepare(req);
  const matched = matcher.match(hook.criteria, req);
  if (matched === undefined) return undefined;
  let request: AdmissionRequest;
  try {
    request = await versionedRequest(req, matched, matcher.mapper);
  } catch (err) {
    throw newInternalError(
      new Error(`unable to convert to ${gvkText(matched.kind)}: ${(err as Error).message}`)
    );
  }
  const invocation: WebhookInvocation = { ...matched, request };
  if (hook.matchConditions === undefined && hook.matchConditionsError === undefined) {
    return invocation;
  }
  let error = hook.matchConditionsError;
  if (error === undefined && hook.matchConditions) {
    try {
      const result = await hook.matchConditions.evaluate(request, {
        kind: matched.kind,
        resource: req.resource,
      });
      if (result.error === undefined) return result.matches ? invocation : undefined;
      error = result.error;
    } catch (err) {
      error = (err as Error).message;
    }
  }
  if (hook.failurePolicy === 'Ignore') {
    log.warn('failed evaluating match conditions, failing open', { webhook: hook.name, error });
    return undefined;
  }
  throw new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `failed evaluating match conditions of webhook "${hook.name}", failing closed: ${error ?? ''}`,
    reason: 'Forbidden',
    code: 403,
  });
}

const gvkText = (k: MatchedResource['kind']): string =>
  `${k.group === '' ? '' : `${k.group}/`}${k.version}, Kind=${k.kind}`;

/** A warning as plain text: control characters become spaces (the gateway bounds sizes). */
export function sanitizeWarning(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

/**
 * Calls one webhook and returns its allowing reply. Throws CallingWebhookError (the call
 * failed: failurePolicy decides), WebhookRejectionError (denied), or a StatusError that fails
 * the request whatever the policy (a dry run the webhook cannot take).
 */
export async function callHook(
  hook: CompiledWebhook,
  invocation: WebhookInvocation,
  ctx: AdmissionContext,
  mutating: boolean
): Promise<AdmissionResponse> {
  const req = invocation.request;
  if (req.dryRun) {
    if (hook.sideEffects === undefined) {
      throw new CallingWebhookError(hook.name, 'Webhook SideEffects is nil');
    }
    if (hook.sideEffects !== 'None' && hook.sideEffects !== 'NoneOnDryRun') {
      throw newDryRunUnsupportedErr(hook.name);
    }
  }
  if (hook.reviewVersion === undefined) {
    throw new CallingWebhookError(
      hook.name,
      'webhook does not accept known AdmissionReview versions'
    );
  }
  if (!('post' in hook.client)) {
    throw new CallingWebhookError(hook.name, `could not get REST client: ${hook.client.error}`);
  }
  const uid = randomUUID();
  const review = createAdmissionReview(req, uid, hook.reviewVersion, invocation);
  let body: unknown;
  try {
    body = (await hook.client.post(review, hook.timeoutMs, ctx.signal)).body;
  } catch (err) {
    const code = err instanceof ReplyStatusError ? err.statusCode : 0;
    const reason =
      err instanceof InvalidReplyError
        ? (err as Error).message
        : `failed to call webhook: ${(err as Error).message}`;
    throw new CallingWebhookError(hook.name, reason, code);
  }
  let reply: AdmissionResponse;
  try {
    reply = verifyAdmissionResponse(uid, hook.reviewVersion, mutating, body);
  } catch (err) {
    throw new CallingWebhookError(
      hook.name,
      `received invalid webhook response: ${(err as Error).message}`,
      200
    );
  }
  for (const [k, v] of Object.entries(reply.auditAnnotations)) ctx.annotate(`${hook.name}/${k}`, v);
  for (const w of reply.warnings) {
    const text = sanitizeWarning(w);
    if (text !== '') ctx.warn(text);
  }
  if (!reply.allowed) throw new WebhookRejectionError(toStatusErr(hook.name, reply.status));
  return reply;
}

/**
 * The end of a webhook call that threw, as both dispatchers handle it (upstream's mutating and
 * validating dispatchers): the metrics, then under failurePolicy Ignore a failed call fails
 * open (logged, counted, annotated with `failedOpen`) and gives undefined; anything else is
 * the StatusError that fails the request (a call failure as 500 InternalError, a rejection as
 * its own Status).
 */
export function webhookCallFailure(
  err: unknown,
  hook: CompiledWebhook,
  type: WebhookStepType,
  op: string,
  seconds: number,
  parts: { metrics: WebhookMetrics; log: Logger },
  failedOpen: () => void
): StatusError | undefined {
  const { metrics, log } = parts;
  if (err instanceof CallingWebhookError) {
    const ignore = hook.failurePolicy === 'Ignore';
    if (!ignore) metrics.observeRejection(hook.name, type, op, 'calling_webhook_error', 500);
    metrics.observe(hook.name, type, op, seconds, !ignore, err.code);
    if (ignore) {
      log.warn('failed calling webhook, failing open', { webhook: hook.name, error: err.message });
      metrics.observeFailOpen(hook.name, type);
      failedOpen();
      return undefined;
    }
    log.warn('failed calling webhook, failing closed', { webhook: hook.name, error: err.message });
    return newInternalError(err);
  }
  if (err instanceof WebhookRejectionError) {
    metrics.observeRejection(hook.name, type, op, 'no_error', err.status.code);
    metrics.observe(hook.name, type, op, seconds, true, err.status.code);
    return err.status;
  }
  metrics.observeRejection(hook.name, type, op, 'apiserver_internal_error', 0);
  metrics.observe(hook.name, type, op, seconds, true, 0);
  return err instanceof StatusError ? err : newInternalError(err);
}
