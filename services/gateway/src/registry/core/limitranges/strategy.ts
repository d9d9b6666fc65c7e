// LimitRanges (k8s pkg/registry/core/limitrange/strategy.go): no status; every write is
// defaulted as upstream's SetDefaults_LimitRangeItem (a Container item's default limit from its
// max, its default request from its default limit, else its min) and validated as upstream's
// ValidateLimitRange.
import type { ApiObject } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { validateLimitRange } from './validation.js';

type ResourceMap = Record<string, unknown>;

/** SetDefaults_LimitRangeItem for each Container item. */
export function defaultLimitRange(obj: ApiObject): void {
  const limits = (obj['spec'] as { limits?: unknown } | undefined)?.limits;
  if (!Array.isArray(limits)) return;
  for (const item of limits as Record<string, unknown>[]) {
    if (!item || item['type'] !== 'Container') continue;
    const max = (item['max'] ?? {}) as ResourceMap;
    const min = (item['min'] ?? {}) as ResourceMap;
    const def = { ...((item['default'] ?? {}) as ResourceMap) };
    const req = { ...((item['defaultRequest'] ?? {}) as ResourceMap) };
    for (const [k, v] of Object.entries(max)) if (!(k in def)) def[k] = v;
    for (const [k, v] of Object.entries(def)) if (!(k in req)) req[k] = v;
    for (const [k, v] of Object.entries(min)) if (!(k in req)) req[k] = v;
    if (Object.keys(def).length > 0) item['default'] = def;
    if (Object.keys(req).length > 0) item['defaultRequest'] = req;
  }
}

const base = defaultStrategy({ hasStatus: false });

export const limitRangeStrategy: Strategy = {
  ...base,
  prepareForCreate(obj) {
    base.prepareForCreate(obj);
    defaultLimitRange(obj);
  },
  prepareForUpdate(obj, old) {
    base.prepareForUpdate(obj, old);
    defaultLimitRange(obj);
  },
  validate: validateLimitRange,
  validateUpdate: (obj) => validateLimitRange(obj),
};
