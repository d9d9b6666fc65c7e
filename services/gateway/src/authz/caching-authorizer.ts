// Decisions of a remote authorizer kept for a while, as k8s keeps webhook decisions
// (--authorization-webhook-cache-{authorized,unauthorized}-ttl), but invalidated by the policy
// itself: the authorizer says through which revision of each kind of policy object (roles,
// rolebindings, ...) it decided, the gateway watches those kinds, and a decision stops being
// used as soon as the gateway has seen a change of one of them after that revision. So a
// revoked binding ends cached allows within the watch latency, not after the TTL; the TTL
// bounds what a lost watch message could cost.
import type { Fanout } from '../watch/fanout.js';
import type { Change, FeedListener } from '../watch/type-feed.js';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { Logger } from '@orch/component-base/logs';
import type { Status } from '@orch/apimachinery/errors';
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
 * Feeds a CachingAuthorizer the changes of the policy kinds from the gateway's own watch feeds,
 * starting at the current revision and starting over when a feed fails.
 */
export class PolicyWatch {
  readonly #cache: CachingAuthorizer;
  readonly #defs: ResourceDefinition[];
  readonly #fanout: Fanout;
  readonly #currentRevision: () => Promise<number>;
  readonly #log: Logger;
  #unsubscribe: (() => void)[] = [];
  #stopped = false;

  constructor(
    cache: CachingAuthorizer,
    defs: ResourceDefinition[],
    fanout: Fanout,
    currentRevision: () => Promise<number>,
    log: Logger
  ) {
    this.#cache = cache;
    this.#defs = defs;
    this.#fanout = fanout;
    this.#currentRevision = currentRevision;
    this.#log = log;
  }

  async start(): Promise<void> {
    while (!this.#stopped) {
      try {
        const revision = await this.#currentRevision();
        this.#unsubscribe = await Promise.all(
          this.#defs.map((def) =>
            this.#fanout.feedFor(def).subscribe(this.#listener(def.resource), revision)
          )
        );
        this.#cache.watching(
          this.#defs.map((d) => d.resource),
          revision
        );
        return;
      } catch (err) {
        this.#drop();
        this.#log.warn(
          'authorization cache: cannot watch the policy; deciding uncached, retrying',
          { err }
        );
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  stop(): void {
    this.#stopped = true;
    this.#drop();
  }

  #drop(): void {
    for (const u of this.#unsubscribe) u();
    this.#unsubscribe = [];
    this.#cache.notWatching();
  }

  #listener(kind: string): FeedListener {
    return {
      change: (c: Change) => this.#cache.policyChanged(kind, c.revision),
      progress: () => undefined,
      fail: (s: Status) => {
        if (this.#unsubscribe.length === 0) return; // already starting over
        this.#log.warn('authorization cache: policy watch ended; starting over', {
          kind,
          reason: s.reason,
        });
        this.#drop();
        void this.start();
      },
    };
  }
}
