// EventRateLimit (k8s.io/kubernetes plugin/pkg/admission/eventratelimit), validating: creates of
// Events (core group) are limited by token buckets, one per limit of the configuration and per
// key of its type: Server (one bucket), Namespace (the event's namespace), User (the requester's
// name), SourceAndObject (the event's source and involved object). Each limit has `qps`,
// `burst` and, except Server, `cacheSize` (buckets kept, least recently used dropped; default
// 4096). A create that any bucket refuses fails with 429 `Too many requests: limit reached on
// type <type> for key <key>`. The configuration is upstream's
// eventratelimit.admission.k8s.io/v1alpha1 Configuration, here eventratelimit.admission.orch.io.
import {
  fieldErrorMessage,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  newPath,
  newTooManyRequests,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type {
  AdmissionRequest,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'EventRateLimit' satisfies ServicePluginName;

export const eventRateLimitApiVersion = 'eventratelimit.admission.orch.io/v1alpha1';
export const limitTypes = ['Server', 'Namespace', 'User', 'SourceAndObject'] as const;
export type LimitType = (typeof limitTypes)[number];
export const defaultCacheSize = 4096;

export interface Limit {
  type: LimitType;
  qps: number;
  burst: number;
  cacheSize: number;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

/** Parses and validates the Configuration (upstream's validation.ValidateConfiguration). */
export function parseEventRateLimitConfig(raw: unknown): Limit[] {
  const o = obj(raw);
  if (!o) {
    throw new Error('EventRateLimit configuration: required (limits: at least one limit)');
  }
  const errors: FieldError[] = [];
  for (const k of Object.keys(o)) {
    if (!['apiVersion', 'kind', 'limits'].includes(k)) {
      errors.push(fieldNotSupported(newPath(k), k, ['apiVersion', 'kind', 'limits']));
    }
  }
  if (o['apiVersion'] !== undefined && o['apiVersion'] !== eventRateLimitApiVersion) {
    errors.push(
      fieldNotSupported(newPath('apiVersion'), o['apiVersion'], [eventRateLimitApiVersion])
    );
  }
  if (o['kind'] !== undefined && o['kind'] !== 'Configuration') {
    errors.push(fieldNotSupported(newPath('kind'), o['kind'], ['Configuration']));
  }
  const limits: Limit[] = [];
  const path = newPath('limits');
  const raws = o['limits'];
  if (!Array.isArray(raws) || raws.length === 0) {
    errors.push(
      Array.isArray(raws)
        ? fieldInvalid(path, raws, 'must not be empty')
        : fieldRequired(path, 'must not be empty')
    );
  } else {
    raws.forEach((r, i) => {
      const p = path.index(i);
      const l = obj(r);
      if (!l) {
        errors.push(fieldInvalid(p, r, 'must be a limit'));
        return;
      }
      for (const k of Object.keys(l)) {
        if (!['type', 'qps', 'burst', 'cacheSize'].includes(k)) {
          errors.push(fieldNotSupported(p.child(k), k, ['type', 'qps', 'burst', 'cacheSize']));
        }
      }
      const type = l['type'];
      if (!(limitTypes as readonly unknown[]).includes(type)) {
        errors.push(fieldNotSupported(p.child('type'), type ?? '', [...limitTypes]));
      }
      const qps = l['qps'];
      if (!Number.isSafeInteger(qps) || (qps as number) <= 0) {
        errors.push(fieldInvalid(p.child('qps'), qps ?? 0, 'must be positive'));
      }
      const burst = l['burst'];
      if (!Number.isSafeInteger(burst) || (burst as number) <= 0) {
        errors.push(fieldInvalid(p.child('burst'), burst ?? 0, 'must be positive'));
      }
      const cacheSize = l['cacheSize'];
      if (
        cacheSize !== undefined &&
        (!Number.isSafeInteger(cacheSize) || (cacheSize as number) < 0)
      ) {
        errors.push(fieldInvalid(p.child('cacheSize'), cacheSize, 'must not be negative'));
      }
      limits.push({
        type: type as LimitType,
        qps: qps as number,
        burst: burst as number,
        cacheSize: (cacheSize as number | undefined) || defaultCacheSize,
      });
    });
  }
  if (errors.length > 0) {
    throw new Error(`EventRateLimit configuration: ${errors.map(fieldErrorMessage).join(', ')}`);
  }
  return limits;
}

/** A token bucket (client-go's flowcontrol token bucket rate limiter, TryAccept). */
export class TokenBucket {
  readonly #qps: number;
  readonly #burst: number;
  readonly #now: () => number;
  #tokens: number;
  #last: number;

  constructor(qps: number, burst: number, now: () => number) {
    this.#qps = qps;
    this.#burst = burst;
    this.#now = now;
    this.#tokens = burst;
    this.#last = now();
  }

  tryAccept(): boolean {
    const t = this.#now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((t - this.#last) / 1000) * this.#qps);
    this.#last = t;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

/** The key of an event for a limit type (upstream's getServerKey, getNamespaceKey, ...). */
export function keyFor(type: LimitType, req: AdmissionRequest): string {
  switch (type) {
    case 'Server':
      return '';
    case 'Namespace':
      return req.namespace;
    case 'User':
      return req.userInfo.name;
    case 'SourceAndObject': {
      const e = (req.object ?? {}) as Obj;
      const source = obj(e['source']) ?? {};
      const io = obj(e['involvedObject']) ?? {};
      return [
        source['component'],
        source['host'],
        io['kind'],
        io['namespace'],
        io['name'],
        io['uid'],
        io['apiVersion'],
      ]
        .map((v) => String(v ?? ''))
        .join('');
    }
  }
}

/** The buckets of one limit: one for Server, else an LRU cache of `cacheSize` buckets by key. */
class LimitEnforcer {
  readonly limit: Limit;
  readonly #now: () => number;
  readonly #buckets = new Map<string, TokenBucket>();

  constructor(limit: Limit, now: () => number) {
    this.limit = limit;
    this.#now = now;
  }

  accept(req: AdmissionRequest): string | undefined {
    const key = keyFor(this.limit.type, req);
    let bucket = this.#buckets.get(key);
    if (bucket) {
      // most recently used last
      this.#buckets.delete(key);
    } else {
      bucket = new TokenBucket(this.limit.qps, this.limit.burst, this.#now);
      const size = this.limit.type === 'Server' ? 1 : this.limit.cacheSize;
      while (this.#buckets.size >= size) {
        const oldest = this.#buckets.keys().next().value as string;
        this.#buckets.delete(oldest);
      }
    }
    this.#buckets.set(key, bucket);
    return bucket.tryAccept()
      ? undefined
      : `limit reached on type ${this.limit.type} for key ${key}`;
  }
}

const isEvent = (req: AdmissionRequest): boolean =>
  req.kind.group === '' && req.kind.kind === 'Event' && req.subResource === '';

export function newEventRateLimit(
  deps: PluginDeps,
  now: () => number = () => performance.now()
): ServicePlugin {
  const limits = parseEventRateLimitConfig(deps.config);
  const enforcers = limits.map((l) => new LimitEnforcer(l, now));
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE',
    mayValidate: async (req) => isEvent(req),
    async validate(req) {
      if (!isEvent(req)) return;
      const refused: string[] = [];
      // Every limit sees the event (and takes its token) even when another refuses, as upstream.
      for (const e of enforcers) {
        const why = e.accept(req);
        if (why) refused.push(why);
      }
      if (refused.length === 0) return;
      const message = refused.length === 1 ? refused[0]! : `[${refused.join(', ')}]`;
      throw newTooManyRequests(`Too many requests: ${message}`, 1);
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, (deps) => newEventRateLimit(deps), { needsConfiguration: true });
}
