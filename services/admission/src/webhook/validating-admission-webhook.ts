// ValidatingAdmissionWebhook: calls the matching webhooks of every
// ValidatingWebhookConfiguration in parallel on the final object; any denial or failed call
// (under failurePolicy Fail) fails the request, the first in webhook order being returned.
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/validating/{plugin,dispatcher}.go.
import { newInternalError, StatusError } from '@orch/apimachinery/errors';

import type {
  AdmissionContext,
  AdmissionRequest,
  Operation,
  PluginDeps,
  ServicePlugin,
} from '../interfaces.js';

import { mayMatch } from '../matching/index.js';
import { callHook, shouldCallHook } from './webhook-caller.js';
import { CallingWebhookError, WebhookRejectionError } from './webhook-errors.js';
import type { WebhookPluginParts } from './set-up-webhook-plugin.js';
import { setUpWebhookPlugin } from './set-up-webhook-plugin.js';
import type { CompiledWebhook } from './webhook-source.js';

/** Audit annotation key prefix of a webhook that failed open (upstream's, in orch.io). */
export const validatingFailedOpenAnnotationPrefix =
  'failed-open.validating.webhook.admission.orch.io/';

class ValidatingWebhookPlugin implements ServicePlugin {
  readonly name = 'ValidatingAdmissionWebhook' as const;
  readonly #p: WebhookPluginParts;

  constructor(parts: WebhookPluginParts) {
    this.#p = parts;
  }

  handles(_operation: Operation): boolean {
    return true;
  }

  async mayValidate(req: AdmissionRequest): Promise<boolean> {
    return (await this.#p.source.webhooks()).some((hook) => mayMatch(hook.criteria, req));
  }

  async validate(req: AdmissionRequest, ctx: AdmissionContext): Promise<void> {
    const hooks = await this.#p.source.webhooks();
    const relevant: CompiledWebhook[] = [];
    for (const hook of hooks) {
      if (await shouldCallHook(this.#p.matcher, hook, req, this.#p.log)) relevant.push(hook);
    }
    if (relevant.length === 0) return;
    const errors = await Promise.all(relevant.map((hook, i) => this.#callOne(hook, req, ctx, i)));
    const failed = errors.filter((e): e is StatusError => e !== undefined);
    for (const extra of failed.slice(1)) {
      this.#p.log.warn('further webhook rejection', { error: extra.message });
    }
    if (failed[0] !== undefined) throw failed[0];
  }

  /** One call; the StatusError that fails the request, or undefined. */
  async #callOne(
    hook: CompiledWebhook,
    req: AdmissionRequest,
    ctx: AdmissionContext,
    index: number
  ): Promise<StatusError | undefined> {
    const { metrics, log } = this.#p;
    const op = req.operation;
    const started = performance.now();
    const seconds = (): number => (performance.now() - started) / 1000;
    try {
      await callHook(hook, req, ctx, false);
      metrics.observe(hook.name, 'validating', op, seconds(), false, 200);
      return undefined;
    } catch (err) {
      if (err instanceof CallingWebhookError) {
        const ignore = hook.failurePolicy === 'Ignore';
        if (!ignore)
          metrics.observeRejection(hook.name, 'validating', op, 'calling_webhook_error', 500);
        metrics.observe(hook.name, 'validating', op, seconds(), !ignore, err.code);
        if (ignore) {
          log.warn('failed calling webhook, failing open', {
            webhook: hook.name,
            error: err.message,
          });
          metrics.observeFailOpen(hook.name, 'validating');
          ctx.annotate(`${validatingFailedOpenAnnotationPrefix}round_0_index_${index}`, hook.name);
          return undefined;
        }
        log.warn('failed calling webhook, failing closed', {
          webhook: hook.name,
          error: err.message,
        });
        return newInternalError(err);
      }
      if (err instanceof WebhookRejectionError) {
        metrics.observeRejection(hook.name, 'validating', op, 'no_error', err.status.code);
        metrics.observe(hook.name, 'validating', op, seconds(), true, err.status.code);
        return err.status;
      }
      metrics.observeRejection(hook.name, 'validating', op, 'apiserver_internal_error', 0);
      metrics.observe(hook.name, 'validating', op, seconds(), true, 0);
      return err instanceof StatusError ? err : newInternalError(err);
    }
  }
}

/** The ValidatingAdmissionWebhook plugin (validate phase). */
export function ValidatingAdmissionWebhook(deps: PluginDeps): ServicePlugin {
  return new ValidatingWebhookPlugin(
    setUpWebhookPlugin(deps, 'ValidatingAdmissionWebhook', 'validatingwebhookconfigurations')
  );
}
