// The webhooks of all Mutating- or ValidatingWebhookConfigurations, read from the informer-
// backed lister (watched, never read per request), configurations sorted by name as upstream,
// each webhook compiled once per configuration uid+resourceVersion: its match criteria
// (selectors parsed), its matchConditions, its HTTPS client (caBundle, credentials), and the
// v1 defaults applied where the stored object lacks them. Upstream: k8s.io/apiserver/pkg/
// admission/plugin/webhook/configuration/{mutating,validating}_webhook_manager.go and
// webhook/accessors.go.
import type { Logger } from '@orch/component-base/logs';
import type { ApiObject } from '@orch/apimachinery/meta';
import { newInternalError } from '@orch/apimachinery/errors';

import type {
  Listers,
  MatchConditions,
  MatchConditionsCompiler,
  ObjectLister,
} from '../interfaces.js';
import type { MatchCriteria, RuleWithOperations } from '../matching/index.js';
import { compileSelector } from '../matching/index.js';
import type { LabelSelectorObject } from '@orch/apimachinery/selectors';

import type { ReviewVersion } from './admission-review.js';
import { chooseReviewVersion } from './admission-review.js';
import type { WebhookClient, WebhookClientConfig } from '@orch/apimachinery/webhook';

/** One `webhooks[]` entry of admissionregistration/v1 (mutating has the last field too). */
export interface WebhookObject {
  name: string;
  clientConfig?: WebhookClientConfig;
  rules?: RuleWithOperations[] | null;
  failurePolicy?: string | null;
  matchPolicy?: string | null;
  namespaceSelector?: LabelSelectorObject | null;
  objectSelector?: LabelSelectorObject | null;
  sideEffects?: string | null;
  timeoutSeconds?: number | null;
  admissionReviewVersions?: string[] | null;
  matchConditions?: { name: string; expression: string }[] | null;
  reinvocationPolicy?: string | null;
}

/** A webhook ready to be matched and called. */
export interface CompiledWebhook {
  /** `<configuration>/<webhook>/<index>`, unique among the webhooks (upstream's accessor uid). */
  readonly uid: string;
  readonly configurationName: string;
  readonly name: string;
  readonly criteria: MatchCriteria;
  /** Undefined when the webhook has no matchConditions. */
  readonly matchConditions: MatchConditions | undefined;
  /** The compile errors of matchConditions: every evaluation fails with them. */
  readonly matchConditionsError: string | undefined;
  readonly failurePolicy: 'Fail' | 'Ignore';
  /** Undefined when missing (a dry run then cannot call the webhook). */
  readonly sideEffects: string | undefined;
  readonly timeoutMs: number;
  /** Undefined when none of admissionReviewVersions is spoken here. */
  readonly reviewVersion: ReviewVersion | undefined;
  readonly reinvocationPolicy: 'Never' | 'IfNeeded';
  /** The client, or why none could be built. */
  readonly client: WebhookClient | { error: string };
}

/** v1 default and bounds of timeoutSeconds. */
export const defaultTimeoutSeconds = 10;
const minTimeoutSeconds = 1;
const maxTimeoutSeconds = 30;

export type ClientFactory = (cc: WebhookClientConfig) => WebhookClient;

interface CacheEntry {
  key: string;
  webhooks: CompiledWebhook[];
}

/** Longer than any call may last (timeoutSeconds is at most 30). */
const retiredClientGraceMs = (maxTimeoutSeconds + 5) * 1000;

/**
 * Closes the clients of a replaced or removed configuration once calls still under way on them
 * have had their time (closing at once would cut those calls).
 */
function closeAll(webhooks: readonly CompiledWebhook[], now = false): void {
  const close = (): void => {
    for (const w of webhooks) if ('post' in w.client) w.client.close();
  };
  if (now) close();
  else setTimeout(close, retiredClientGraceMs).unref();
}

export class WebhookSource {
  readonly #listers: Listers;
  readonly #resource: string;
  readonly #newClient: ClientFactory;
  readonly #matchConditions: MatchConditionsCompiler;
  readonly #log: Logger;
  #lister: Promise<ObjectLister> | undefined;
  /** By configuration uid (name when it has none). */
  readonly #cache = new Map<string, CacheEntry>();

  constructor(opts: {
    listers: Listers;
    /** `mutatingwebhookconfigurations` or `validatingwebhookconfigurations`. */
    resource: string;
    newClient: ClientFactory;
    matchConditions: MatchConditionsCompiler;
    log: Logger;
  }) {
    this.#listers = opts.listers;
    this.#resource = opts.resource;
    this.#newClient = opts.newClient;
    this.#matchConditions = opts.matchConditions;
    this.#log = opts.log;
  }

  /** Every webhook, configurations by name, webhooks in their order. */
  async webhooks(): Promise<CompiledWebhook[]> {
    const lister = await this.#getLister();
    const configs = [...lister.list()].sort((a, b) => {
      const x = a.metadata.name ?? '';
      const y = b.metadata.name ?? '';
      return x < y ? -1 : x > y ? 1 : 0;
    });
    const seen = new Set<string>();
    const out: CompiledWebhook[] = [];
    for (const config of configs) {
      const id = config.metadata.uid ?? `name:${config.metadata.name ?? ''}`;
      const key = `${config.metadata.uid ?? ''}/${config.metadata.resourceVersion ?? ''}/${config.metadata.name ?? ''}`;
      seen.add(id);
      let entry = this.#cache.get(id);
      if (entry?.key !== key) {
        if (entry) closeAll(entry.webhooks);
        entry = { key, webhooks: this.#compile(config) };
        this.#cache.set(id, entry);
      }
      out.push(...entry.webhooks);
    }
    for (const [id, entry] of this.#cache) {
      if (!seen.has(id)) {
        closeAll(entry.webhooks);
        this.#cache.delete(id);
      }
    }
    return out;
  }

  /** Closes every client. */
  close(): void {
    for (const entry of this.#cache.values()) closeAll(entry.webhooks, true);
    this.#cache.clear();
  }

  async #getLister(): Promise<ObjectLister> {
    this.#lister ??= this.#listers.forResource('admissionregistration.orch.io', this.#resource);
    try {
      return await this.#lister;
    } catch (err) {
      this.#lister = undefined;
      throw newInternalError(`cannot list ${this.#resource}: ${(err as Error).message}`);
    }
  }

  #compile(config: ApiObject): CompiledWebhook[] {
    const configurationName = config.metadata.name ?? '';
    const hooks = Array.isArray(config['webhooks']) ? (config['webhooks'] as WebhookObject[]) : [];
    return hooks.map((h, index) => this.#compileOne(configurationName, h, index));
  }

  #compileOne(configurationName: string, h: WebhookObject, index: number): CompiledWebhook {
    const name = typeof h.name === 'string' ? h.name : '';
    let matchConditions: MatchConditions | undefined;
    let matchConditionsError: string | undefined;
    if (h.matchConditions && h.matchConditions.length > 0) {
      const compiled = this.#matchConditions(
        h.matchConditions,
        `webhooks[${index}].matchConditions`
      );
      if (compiled.errors.length > 0) {
        matchConditionsError = compiled.errors.map((e) => `${e.field}: ${e.message}`).join('; ');
      } else {
        matchConditions = compiled.conditions;
      }
    }
    let client: WebhookClient | { error: string };
    try {
      client = this.#newClient(h.clientConfig ?? {});
    } catch (err) {
      client = { error: (err as Error).message };
      this.#log.warn('webhook client configuration cannot be used', {
        configuration: configurationName,
        webhook: name,
        error: (err as Error).message,
      });
    }
    const timeout =
      typeof h.timeoutSeconds === 'number' && Number.isFinite(h.timeoutSeconds)
        ? Math.min(maxTimeoutSeconds, Math.max(minTimeoutSeconds, h.timeoutSeconds))
        : defaultTimeoutSeconds;
    return {
      uid: `${configurationName}/${name}/${index}`,
      configurationName,
      name,
      criteria: {
        namespaceSelector: compileSelector(h.namespaceSelector),
        objectSelector: compileSelector(h.objectSelector),
        rules: h.rules ?? [],
        matchPolicy: h.matchPolicy ?? 'Equivalent',
      },
      matchConditions,
      matchConditionsError,
      failurePolicy: h.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
      sideEffects: h.sideEffects ?? undefined,
      timeoutMs: timeout * 1000,
      reviewVersion: chooseReviewVersion(h.admissionReviewVersions),
      reinvocationPolicy: h.reinvocationPolicy === 'IfNeeded' ? 'IfNeeded' : 'Never',
      client,
    };
  }
}
