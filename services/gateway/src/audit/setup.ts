// The audit pipeline the gateway runs, from its options: the policy's evaluator and the
// backends (log, webhook). Without a policy file the backends get orch's long-standing default, one
// Metadata event per request at ResponseComplete; with neither a log nor a webhook, no audit.
import type { Registry } from 'prom-client';
import type { AuditOptions } from './audit-options.js';
import type { AuditBackend } from './backends/backend.js';
import { blockingBackend, unionBackend } from './backends/backend.js';
import { bufferedBackend } from './backends/buffered.js';
import { logBackend } from './backends/log.js';
import { truncatingBackend } from './backends/truncate.js';
import type { TruncateOptions } from './backends/truncate.js';
import { webhookSender } from './backends/webhook.js';
import { AuditMetrics } from './event.js';
import { fixedLevelEvaluator, newPolicyRuleEvaluator } from './policy/checker.js';
import type { PolicyRuleEvaluator } from './policy/checker.js';

export interface AuditPipeline {
  evaluator: PolicyRuleEvaluator;
  backend: AuditBackend;
  metrics: AuditMetrics;
  /** The log or a blocking webhook: events are stored before the answer goes. */
  completeBeforeAnswer: boolean;
}

export const defaultMetadataPolicy = fixedLevelEvaluator({
  level: 'Metadata',
  omitStages: ['RequestReceived', 'ResponseStarted'],
  omitManagedFields: false,
});

export function auditPipeline(o: AuditOptions, registry: Registry): AuditPipeline | undefined {
  const metrics = new AuditMetrics(registry);
  const backends: AuditBackend[] = [];
  const truncating = (b: AuditBackend, t: TruncateOptions | undefined): AuditBackend =>
    t ? truncatingBackend(b, t, metrics) : b;
  if (o.log) backends.push(truncating(logBackend(o.log, o.log.strict, metrics), o.log.truncate));
  if (o.webhook) {
    const send = webhookSender(o.webhook.configFile, o.webhook.initialBackoffMs);
    const mode = o.webhook.mode;
    backends.push(
      truncating(
        mode === 'batch'
          ? bufferedBackend('webhook', send, o.webhook.batch, metrics)
          : blockingBackend('webhook', send, mode === 'blocking-strict', metrics),
        o.webhook.truncate
      )
    );
  }
  const backend = unionBackend(backends);
  if (!backend) return undefined;
  return {
    evaluator: o.policy ? newPolicyRuleEvaluator(o.policy) : defaultMetadataPolicy,
    backend,
    metrics,
    completeBeforeAnswer: !!o.log || (!!o.webhook && o.webhook.mode !== 'batch'),
  };
}
