// ResourceQuotas (k8s pkg/registry/core/resourcequota/strategy.go): a create starts with an
// empty status (the quota controller fills status.hard and status.used), writes to the main
// resource keep the status, writes to status keep the spec; validation as upstream's.
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { validateResourceQuota, validateResourceQuotaUpdate } from './validation.js';

export const resourceQuotaStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: true }),
  prepareForCreate(obj) {
    obj['status'] = {};
  },
  validate: validateResourceQuota,
  validateUpdate: validateResourceQuotaUpdate,
};
