// Deployments (k8s pkg/registry/apps/deployment/strategy.go): the generic rules with a status
// subresource, and apps/v1's immutable selector (ValidateDeploymentUpdate).
import { newPath } from '@orch/apimachinery/errors';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { objectAt } from '../../unstructured.js';
import { immutable } from '../../validation.js';

export const deploymentStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: true }),
  validateUpdate: (obj, old) =>
    immutable(
      objectAt(obj, 'spec')['selector'],
      objectAt(old, 'spec')['selector'],
      newPath('spec', 'selector')
    ),
};
