// Decisions of a remote authorizer kept for a while, as k8s keeps webhook decisions
// (--authorization-webhook-cache-{authorized,unauthorized}-ttl), but invalidated by the policy
// itself: the authorizer says through which revision of each kind of policy object (roles,
// rolebindings, ...) it decided, the gateway watches those kinds, and a decision stops being
// used as soon as the gateway has seen a change of one of them after that revision. So a
// revoked binding ends cached allows within the watch latency, not after the TTL; the TTL
// bounds what a lost watch message could cost.
import type { Informer } from '@orch/apimachinery/informer';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { Logger } from '@orch/component-base/logs';
import type { Cachers } from '../cache/cachers.js';
import type { Attributes, AuthorizationResult } from '@orch/apimachinery/auth';
import type { Authorizer } from './authorizer.js';

export interface DecisionCacheOptions {
  /** How long an allow is kept (0: not cached). */
  authorizedTtlMs: number;
  /** How long a deny or no-opinion is kept (0: not cached). */
  unauthorizedTtlMs: number;
  /** Entries kept at most; the oldest go first. */
  maxEntries?: number;
  onHit?: () => void;
  onMiss?: () => void;
}

interface Entry {
  result: AuthorizationResult;
  expires: number;
  policy: Record<string, number>;
}

export class CachingAuthorizer implements Authorizer {
  readonly #inner: Authorizer;
  readonly #opts: DecisionCacheOptions;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, Entry>();
  /** The highest revision of a change seen for each kind of policy object; undefined until watched. */
  #seen: Map<string, number> | undefined;

  constructor(inner: Authorizer, opts: DecisionCacheOptions) {
    this.#inner = inner;
    this.#opts = opts;
    this.#maxEntries = opts.maxEntries ?? 10_000;
  }

  /**
   * The policy is watched from `revision` on (every earlier decision is suspect): caching starts,
   * or starts again after the watch was lost.
   */
  watching(kinds: string[], revision: number): void {
    this.#entries.clear();
    this.#seen = new Map(kinds.map((k) => [k, revision]));
  }

  /** The watch of the policy is lost: nothing is cached until `watching` is called again. */
  notWatching(): void {
    this.#seen = undefined;
    this.#entries.clear();
  }

  /** A policy object of `kind` changed at `revision`. */
  policyChanged(kind: string, revision: number): void {
    if (this.#seen && revision > (this.#seen.get(kind) ?? 0)) this.#seen.set(kind, revision);
  }

  get size(): number {
    return this.#entries.size;
  }

  async authorize(a: Attributes): Promise<AuthorizationResult> {
    const now = Date.now();
    // A decision that holds for any name is kept once for all names of the resource.
    const resourceKey = cacheKey(a);
    const anyName = a.isResourceRequest && a.name !== '' ? resourceKey : undefined;
    const key = resourceKey + JSON.stringify(a.name);
    for (const k of anyName ? [anyName, key] : [key]) {
      const hit = this.#entries.get(k);
      if (!hit) continue;
      if (hit.expires > now && this.#current(hit.policy)) {
        this.#opts.onHit?.();
        return hit.result;
      }
      this.#entries.delete(k);
    }
    this.#opts.onMiss?.();
    const seenBefore = this.#seen;
    const result = await this.#inner.authorize(a);
    const ttl =
      result.decision === 'allow' ? this.#opts.authorizedTtlMs : this.#opts.unauthorizedTtlMs;
    // Only when the watch was running the whole time: a decision could otherwise predate a
    // change the gateway never saw.
    if (ttl > 0 && seenBefore && seenBefore === this.#seen) {
      if (this.#entries.size >= this.#maxEntries)
        this.#entries.delete(this.#entries.keys().next().value as string);
      this.#entries.set(result.nameIndependent && anyName ? anyName : key, {
        result,
        expires: now + ttl,
        policy: result.policyRevisions ?? {},
      });
    }
    return result;
  }

  /** True when no change seen is newer than what the decision stood on. */
  #current(policy: Record<string, number>): boolean {
    if (!this.#seen) return false;
    for (const [kind, revision] of Object.entries(policy))
      if ((this.#seen.get(kind) ?? Infinity) > revision) return false;
    return true;
  }
}

/**
 * Every attribute the decision depends on (the path only where it is what is authorized) but the
 * resource name: the key of a decision that holds for any name; the name's JSON appended to it
 * makes the key of one that does not.
 */
function cacheKey(a: Attributes): string {
  const u = a.user;
  const extra = Object.keys(u.extra)
    .sort()
    .map((k) => [k, u.extra[k]]);
  return JSON.stringify([
    u.name,
    u.uid,
    u.groups,
    extra,
    a.verb,
    a.isResourceRequest,
    a.isResourceRequest ? '' : a.path,
    a.apiGroup,
    a.apiVersion,
    a.resource,
    a.subresource,
    a.namespace,
  ]);
}

/**
 * Feeds a CachingAuthorizer the changes of the policy kinds from the gateway's watch caches
 * (read as Informers, started with the gateway): caching starts once every kind's cache is
 * synced, from the revisions the caches are complete up to, and starts over after a relist
 * (changes in the gap may not be seen as changes). Each change counts at its object's
 * resourceVersion (a deletion's is the deletion revision).
 */
export class PolicyWatch {
  readonly #cache: CachingAuthorizer;
  readonly #kinds: { resource: string; informer: Informer; start: () => void }[];
  readonly #log: Logger;
  #started = false;
  #stopped = false;

  constructor(cache: CachingAuthorizer, defs: ResourceDefinition[], cachers: Cachers, log: Logger) {
    this.#cache = cache;
    this.#kinds = defs.map((def) => {
      const cacher = cachers.for(def);
      return {
        resource: def.resource,
        informer: cacher.cache,
        start: () => void cacher.start({ required: true }),
      };
    });
    this.#log = log;
  }

  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    for (const k of this.#kinds) k.start();
    await Promise.all(this.#kinds.map((k) => k.informer.waitForSync()));
    if (this.#stopped) return;
    for (const k of this.#kinds) {
      const changed = (o: Record<string, unknown>): void => {
        if (this.#stopped) return;
        const rv = (o['metadata'] as { resourceVersion?: string } | undefined)?.resourceVersion;
        this.#cache.policyChanged(k.resource, Number(rv ?? 0));
      };
      k.informer.addEventHandler({
        onAdd: changed,
        onUpdate: (_old, o) => changed(o),
        onDelete: changed,
        onReplace: () => {
          if (this.#stopped) return;
          this.#log.warn('authorization cache: a policy cache relisted; starting over', {
            kind: k.resource,
          });
          this.#watching();
        },
      });
    }
    this.#watching();
  }

  stop(): void {
    this.#stopped = true;
    this.#cache.notWatching();
  }

  /** Caching from the newest revision a policy cache is complete up to. */
  #watching(): void {
    const revision = Math.max(...this.#kinds.map((k) => k.informer.lastRevision));
    this.#cache.watching(
      this.#kinds.map((k) => k.resource),
      revision
    );
  }
}
