// The audit pipeline the gateway runs, from its options: the policy's evaluator and the
// backends (log, webhook). Without a policy file the backends get orch's long-standing default, one
// Metadata event per request at ResponseComplete; with neither a log nor a webhook, no audit.
import type { Registry } from 'prom-client';
import type { AuditOptions } from './audit-options.js';
import type { AuditBackend } from './backends/backend.js';
import { unionBackend } from './backends/backend.js';
import { bufferedBackend } from './backends/buffered.js';
import { logBackend } from './backends/log.js';
import { webhookSender } from './backends/webhook.js';
import { AuditMetrics } from './event.js';
import { fixedLevelEvaluator, newPolicyRuleEvaluator } from './policy/checker.js';
import type { PolicyRuleEvaluator } from './policy/checker.js';

export interface AuditPipeline {
  evaluator: PolicyRuleEvaluator;
  backend: AuditBackend;
  metrics: AuditMetrics;
}

export const defaultMetadataPolicy = fixedLevelEvaluator({
  level: 'Metadata',
  omitStages: ['RequestReceived', 'ResponseStarted'],
  omitManagedFields: false,
});

export function auditPipeline(o: AuditOptions, registry: Registry): AuditPipeline | undefined {
  const metrics = new AuditMetrics(registry);
  const backends: AuditBackend[] = [];
  if (o.log) backends.push(logBackend(o.log, metrics));
  if (o.webhook)
    backends.push(
      bufferedBackend(
        'webhook',
        webhookSender(o.webhook.configFile, o.webhook.initialBackoffMs),
        o.webhook.batch,
        metrics
      )
    );
  const backend = unionBackend(backends);
  if (!backend) return undefined;
  return {
    evaluator: o.policy ? newPolicyRuleEvaluator(o.policy) : defaultMetadataPolicy,
    backend,
    metrics,
  };
}
