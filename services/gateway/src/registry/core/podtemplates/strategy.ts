// PodTemplates (k8s pkg/registry/core/podtemplate/strategy.go, ValidatePodTemplate): a template
// with containers; no status.
import { fieldRequired, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { validatePodTemplateSpec } from './validate-pod-template.js';
import { isObject } from '../../unstructured.js';

function validatePodTemplate(obj: ApiObject): FieldError[] {
  const template = obj['template'];
  if (!isObject(template)) return [fieldRequired(newPath('template'), '')];
  return validatePodTemplateSpec(template, newPath('template'), {
    restartPolicies: ['Always', 'OnFailure', 'Never'],
  });
}

export const podTemplateStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  validate: validatePodTemplate,
  validateUpdate: validatePodTemplate,
};
