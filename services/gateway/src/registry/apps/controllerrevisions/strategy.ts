// ControllerRevisions (k8s pkg/registry/apps/controllerrevision/strategy.go,
// ValidateControllerRevision / ValidateControllerRevisionUpdate): data is mandatory and
// immutable, the revision a non-negative number; no status.
import { fieldRequired, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { nonNegative } from '../../core/validation.js';
import { immutable } from '../../validation.js';

function validateRevision(obj: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  if (obj['data'] === undefined || obj['data'] === null)
    errs.push(fieldRequired(newPath('data'), 'data is mandatory'));
  errs.push(...nonNegative(obj['revision'], newPath('revision')));
  return errs;
}

export const controllerRevisionStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  validate: validateRevision,
  validateUpdate: (obj, old) => [
    ...validateRevision(obj),
    ...immutable(obj['data'], old['data'], newPath('data')),
  ],
};
