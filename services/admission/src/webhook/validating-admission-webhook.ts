// ValidatingAdmissionWebhook: calls the matching webhooks of every
// ValidatingWebhookConfiguration in parallel on the final object; any denial or failed call
// (under failurePolicy Fail) fails the request, the first in webhook order being returned.
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/validating/{plugin,dispatcher}.go.
import type { StatusError } from '@orch/apimachinery/errors';

import type {
  AdmissionContext,
  AdmissionRequest,
  Operation,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

import { mayMatch } from '../matching/index.js';
import { callHook, shouldCallHook, webhookCallFailure } from './webhook-caller.js';
import type { WebhookInvocation } from './webhook-caller.js';
import type { WebhookPluginParts } from './set-up-webhook-plugin.js';
import { setUpWebhookPlugin } from './set-up-webhook-plugin.js';
import type { CompiledWebhook } from './webhook-source.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'ValidatingAdmissionWebhook' satisfies ServicePluginName;

/** Audit annotation key prefix of a webhook that failed open (upstream's, in orch.io). */
export const validatingFailedOpenAnnotationPrefix =
  'failed-open.validating.webhook.admission.orch.io/';

class ValidatingWebhookPlugin implements ServicePlugin {
  readonly name = pluginName;
  readonly #p: WebhookPluginParts;

  constructor(parts: WebhookPluginParts) {
    this.#p = parts;
  }

  handles(_operation: Operation): boolean {
    return true;
  }

  async mayValidate(req: AdmissionRequest): Promise<boolean> {
    const hooks = await this.#p.source.webhooks();
    if (hooks.length === 0) return false;
    await this.#p.matcher.prepare(req);
    return hooks.some((hook) => mayMatch(hook.criteria, req, this.#p.matcher.mapper));
  }

  async validate(req: AdmissionRequest, ctx: AdmissionContext): Promise<void> {
    const hooks = await this.#p.source.webhooks();
    const relevant: [CompiledWebhook, WebhookInvocation][] = [];
    for (const hook of hooks) {
      const invocation = await shouldCallHook(this.#p.matcher, hook, req, this.#p.log);
      if (invocation) relevant.push([hook, invocation]);
    }
    if (relevant.length === 0) return;
    const errors = await Promise.all(
      relevant.map(([hook, invocation], i) => this.#callOne(hook, invocation, ctx, i))
    );
    const failed = errors.filter((e): e is StatusError => e !== undefined);
    for (const extra of failed.slice(1)) {
      this.#p.log.warn('further webhook rejection', { error: extra.message });
    }
    if (failed[0] !== undefined) throw failed[0];
  }

  /** One call; the StatusError that fails the request, or undefined. */
  async #callOne(
    hook: CompiledWebhook,
    invocation: WebhookInvocation,
    ctx: AdmissionContext,
    index: number
  ): Promise<StatusError | undefined> {
    const { metrics } = this.#p;
    const op = invocation.request.operation;
    const started = performance.now();
    const seconds = (): number => (performance.now() - started) / 1000;
    try {
      await callHook(hook, invocation, ctx, false);
      metrics.observe(hook.name, 'validating', op, seconds(), false, 200);
      return undefined;
    } catch (err) {
      return webhookCallFailure(err, hook, 'validating', op, seconds(), this.#p, () =>
        ctx.annotate(`${validatingFailedOpenAnnotationPrefix}round_0_index_${index}`, hook.name)
      );
    }
  }
}

/** The ValidatingAdmissionWebhook plugin (validate phase). */
export function ValidatingAdmissionWebhook(deps: PluginDeps): ServicePlugin {
  return new ValidatingWebhookPlugin(
    setUpWebhookPlugin(deps, pluginName, 'validatingwebhookconfigurations')
  );
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, ValidatingAdmissionWebhook);
}
