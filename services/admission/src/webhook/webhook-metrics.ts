// The webhook metrics in upstream's names and labels (k8s.io/apiserver/pkg/admission/metrics/
// metrics.go: ObserveWebhook, ObserveWebhookRejection, ObserveWebhookFailOpen). Both webhook
// plugins share one registry, so each metric is registered once and found again by name.
import { Counter, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import { withStability } from '@orch/component-base/metrics';

/** `admit` for mutating webhooks, `validating` for validating ones (upstream's values). */
export type WebhookStepType = 'admit' | 'validating';

/** Why a request was rejected (upstream WebhookRejectionErrorType). */
export type WebhookRejectionErrorType =
  'calling_webhook_error' | 'apiserver_internal_error' | 'no_error';

export interface WebhookMetrics {
  observe(
    name: string,
    type: WebhookStepType,
    operation: string,
    seconds: number,
    rejected: boolean,
    code: number
  ): void;
  observeRejection(
    name: string,
    type: WebhookStepType,
    operation: string,
    errorType: WebhookRejectionErrorType,
    code: number
  ): void;
  observeFailOpen(name: string, type: WebhookStepType): void;
}

function once<T>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

export function newWebhookMetrics(registry: Registry): WebhookMetrics {
  const duration = once(
    registry,
    'apiserver_admission_webhook_admission_duration_seconds',
    () =>
      new Histogram(
        withStability(
          {
            name: 'apiserver_admission_webhook_admission_duration_seconds',
            help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
            labelNames: ['name', 'type', 'operation', 'rejected'],
            buckets: [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25],
            registers: [registry],
          },
          { stabilityLevel: 'STABLE' }
        )
      )
  );
  const requests = once(
    registry,
    'apiserver_admission_webhook_request_total',
    () =>
      new Counter(
        withStability(
          {
            name: 'apiserver_admission_webhook_request_total',
            help: 'Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
            labelNames: ['name', 'type', 'operation', 'code', 'rejected'],
            registers: [registry],
          },
          { stabilityLevel: 'ALPHA' }
        )
      )
  );
  const rejections = once(
    registry,
    'apiserver_admission_webhook_rejection_count',
    () =>
      new Counter(
        withStability(
          {
            name: 'apiserver_admission_webhook_rejection_count',
            help: 'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
            labelNames: ['name', 'type', 'operation', 'error_type', 'rejection_code'],
            registers: [registry],
          },
          { stabilityLevel: 'ALPHA' }
        )
      )
  );
  const failOpen = once(
    registry,
    'apiserver_admission_webhook_fail_open_count',
    () =>
      new Counter(
        withStability(
          {
            name: 'apiserver_admission_webhook_fail_open_count',
            help: 'Admission webhook fail open count, identified by name and broken out for each admission type (validating or admit).',
            labelNames: ['name', 'type'],
            registers: [registry],
          },
          { stabilityLevel: 'ALPHA' }
        )
      )
  );
  const bounded = (code: number): string => String(Math.min(code, 600));
  return {
    observe(name, type, operation, seconds, rejected, code) {
      const r = String(rejected);
      duration.observe({ name, type, operation, rejected: r }, seconds);
      requests.inc({ name, type, operation, code: bounded(code), rejected: r });
    },
    observeRejection(name, type, operation, errorType, code) {
      rejections.inc({
        name,
        type,
        operation,
        error_type: errorType,
        rejection_code: bounded(code),
      });
    },
    observeFailOpen(name, type) {
      failOpen.inc({ name, type });
    },
  };
}
