// MutatingAdmissionWebhook: calls the matching webhooks of every MutatingWebhookConfiguration
// in order (configurations by name), applying each JSONPatch reply before the next call; a
// webhook with reinvocationPolicy IfNeeded is called once more when a later webhook changed the
// object. Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/{plugin,dispatcher,
// reinvocationcontext}.go. Reinvocation here covers changes by later webhooks of this plugin;
// the service's chain does not reinvoke across plugins.
import { newInternalError, newTimeout } from '@orch/apimachinery/errors';
import type { StatusError } from '@orch/apimachinery/errors';
import { sameJson } from '@orch/apimachinery/meta';
import type { ApiObject } from '@orch/apimachinery/meta';
import { applyJsonPatch } from '@orch/apimachinery/patch';
import { builtinSchemaModel, validateObject } from '@orch/apimachinery/schema-model';

import type {
  AdmissionContext,
  AdmissionRequest,
  Operation,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

import type { AdmissionResponse } from './admission-review.js';
import { callHook, shouldCallHook, webhookCallFailure } from './webhook-caller.js';
import type { WebhookInvocation } from './webhook-caller.js';
import { CallingWebhookError } from './webhook-errors.js';
import type { WebhookPluginParts } from './set-up-webhook-plugin.js';
import { setUpWebhookPlugin } from './set-up-webhook-plugin.js';
import type { CompiledWebhook } from './webhook-source.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'MutatingAdmissionWebhook' satisfies ServicePluginName;

/** Audit annotation key prefixes (upstream's, in the orch.io domain). */
export const mutationAnnotationPrefix = 'mutation.webhook.admission.orch.io/';
export const mutationFailedOpenAnnotationPrefix = 'failed-open.mutation.webhook.admission.orch.io/';

function isObject(v: unknown): v is ApiObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Applies a reply's patch to `req.object` (the object at the version the webhook was sent);
 * true when the object changed. Failures are
 * internal errors naming the webhook (upstream fails them whatever the failurePolicy), except
 * an unsupported patch type, which is a failed call.
 */
function applyPatch(
  hook: CompiledWebhook,
  reply: AdmissionResponse,
  req: AdmissionRequest,
  kind: AdmissionRequest['kind']
): boolean {
  if (reply.patch === undefined || reply.patch.length === 0) return false;
  if (reply.patchType !== 'JSONPatch') {
    throw new CallingWebhookError(
      hook.name,
      `unsupported patch type "${reply.patchType ?? ''}"`,
      200
    );
  }
  const bad = (why: string): StatusError =>
    newInternalError(
      new Error(`admission webhook "${hook.name}" returned a patch that cannot be applied: ${why}`)
    );
  let ops: unknown;
  try {
    ops = JSON.parse(reply.patch.toString('utf8'));
  } catch (err) {
    throw bad(`not JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(ops)) throw bad('a JSON patch is a list of operations');
  if (ops.length === 0) return false;
  const before = req.object;
  if (before === undefined) {
    throw newInternalError(
      new Error(
        `admission webhook "${hook.name}" attempted to modify the object, which is not supported for this operation`
      )
    );
  }
  let after: unknown;
  try {
    after = applyJsonPatch(before, ops);
  } catch (err) {
    throw bad((err as Error).message);
  }
  if (!isObject(after) || !isObject(after['metadata']))
    throw bad('the patched document is not an object');
  if (after['apiVersion'] !== before['apiVersion'] || after['kind'] !== before['kind']) {
    throw bad(
      `apiVersion and kind may not change (from ${String(before['apiVersion'])}, Kind=${String(before['kind'])} to ${String(after['apiVersion'])}, Kind=${String(after['kind'])})`
    );
  }
  // Upstream decodes the patched document into the kind's type: a field of the wrong type (or
  // a required one removed) fails the request naming the webhook; unknown fields are dropped
  // (pruned, as the gateway's decoding of a request body does).
  const model = builtinSchemaModel().kind(kind);
  if (model) {
    const { problems } = validateObject(model.message, after);
    if (problems.length > 0) {
      throw newInternalError(
        new Error(
          `admission webhook "${hook.name}" returned a patch that makes the object an invalid ${kind.kind}: ${problems.map((p) => `${p.field}: ${p.message}`).join(', ')}`
        )
      );
    }
  }
  const changed = !sameJson(before, after);
  req.object = after;
  return changed;
}

class MutatingWebhookPlugin implements ServicePlugin {
  readonly name = pluginName;
  readonly #p: WebhookPluginParts;

  constructor(parts: WebhookPluginParts) {
    this.#p = parts;
  }

  handles(_operation: Operation): boolean {
    return true;
  }

  async admit(req: AdmissionRequest, ctx: AdmissionContext): Promise<void> {
    const hooks = await this.#p.source.webhooks();
    if (hooks.length === 0) return;
    // Upstream's webhookReinvokeContext: IfNeeded webhooks called so far, and those to call
    // again because a later webhook changed the object.
    const previouslyInvoked = new Set<string>();
    const reinvoke = new Set<string>();
    for (const round of [0, 1]) {
      if (round === 1 && reinvoke.size === 0) return;
      for (const [i, hook] of hooks.entries()) {
        const invocation = await shouldCallHook(this.#p.matcher, hook, req, this.#p.log);
        if (!invocation) continue;
        if (round === 1 && !reinvoke.has(hook.uid)) continue;
        const changed = await this.#callOne(hook, req, invocation, ctx, round, i);
        if (changed) {
          for (const uid of previouslyInvoked) reinvoke.add(uid);
          previouslyInvoked.clear();
        }
        if (hook.reinvocationPolicy === 'IfNeeded') previouslyInvoked.add(hook.uid);
      }
    }
  }

  /**
   * One call with its metrics, failurePolicy and annotations; true when the object changed.
   * A patch to an object sent at another version is converted back to the request's.
   */
  async #callOne(
    hook: CompiledWebhook,
    req: AdmissionRequest,
    invocation: WebhookInvocation,
    ctx: AdmissionContext,
    round: number,
    index: number
  ): Promise<boolean> {
    const { metrics } = this.#p;
    const op = req.operation;
    const started = performance.now();
    const seconds = (): number => (performance.now() - started) / 1000;
    try {
      const reply = await callHook(hook, invocation, ctx, true);
      const versioned = invocation.request;
      const changed = applyPatch(hook, reply, versioned, invocation.kind);
      if (changed && versioned !== req) {
        req.object = await this.#p.matcher.mapper.convert(versioned.object, req.kind);
      }
      metrics.observe(hook.name, 'admit', op, seconds(), false, 200);
      ctx.annotate(
        `${mutationAnnotationPrefix}round_${round}_index_${index}`,
        JSON.stringify({
          configuration: hook.configurationName,
          webhook: hook.name,
          mutated: changed,
        })
      );
      return changed;
    } catch (err) {
      // A call that failed open because the request itself was given up is no pass.
      if (
        err instanceof CallingWebhookError &&
        hook.failurePolicy === 'Ignore' &&
        ctx.signal.aborted
      )
        throw newTimeout('request did not complete within requested timeout', 0);
      const failure = webhookCallFailure(err, hook, 'admit', op, seconds(), this.#p, () =>
        ctx.annotate(`${mutationFailedOpenAnnotationPrefix}round_${round}_index_${index}`, 'true')
      );
      if (failure) throw failure;
      return false;
    }
  }
}

/** The MutatingAdmissionWebhook plugin (admit phase). */
export function MutatingAdmissionWebhook(deps: PluginDeps): ServicePlugin {
  return new MutatingWebhookPlugin(
    setUpWebhookPlugin(deps, pluginName, 'mutatingwebhookconfigurations')
  );
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, MutatingAdmissionWebhook);
}
