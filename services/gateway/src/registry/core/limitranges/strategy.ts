// LimitRanges (k8s pkg/registry/core/limitrange/strategy.go): no status; create and update
// validated as upstream's ValidateLimitRange.
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { validateLimitRange } from './validation.js';

export const limitRangeStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  validate: validateLimitRange,
  validateUpdate: (obj) => validateLimitRange(obj),
};
