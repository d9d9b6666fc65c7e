// ReplicationControllers (k8s pkg/registry/core/replicationcontroller/strategy.go,
// pkg/apis/core/validation ValidateReplicationController / ...Status): a non-empty map selector
// matching the template's labels, Always as the restart policy, consistent status counts.
import { fieldInvalid, fieldRequired, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { isQualifiedName, isValidLabelValue } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { validatePodTemplateSpec } from '../podtemplates/validate-pod-template.js';
import { nonNegative } from '../validation.js';
import { isObject, objectAt } from '../../unstructured.js';

const spec = newPath('spec');

export function validateReplicationControllerSpec(obj: ApiObject): FieldError[] {
  const s = objectAt(obj, 'spec');
  const errs: FieldError[] = [];
  const selector = objectAt(s, 'selector') as Record<string, string>;
  if (Object.keys(selector).length === 0) errs.push(fieldRequired(spec.child('selector'), ''));
  for (const [k, v] of Object.entries(selector)) {
    for (const m of isQualifiedName(k)) errs.push(fieldInvalid(spec.child('selector'), k, m));
    for (const m of isValidLabelValue(String(v)))
      errs.push(fieldInvalid(spec.child('selector').key(k), v, m));
  }
  errs.push(...nonNegative(s['replicas'], spec.child('replicas')));
  errs.push(...nonNegative(s['minReadySeconds'], spec.child('minReadySeconds')));
  const template = s['template'];
  if (!isObject(template)) {
    errs.push(fieldRequired(spec.child('template'), ''));
    return errs;
  }
  const labels = objectAt(objectAt(template, 'metadata'), 'labels');
  if (
    Object.keys(selector).length > 0 &&
    !Object.entries(selector).every(([k, v]) => labels[k] === v)
  ) {
    errs.push(
      fieldInvalid(
        spec.child('template', 'metadata', 'labels'),
        labels,
        '`selector` does not match template `labels`'
      )
    );
  }
  errs.push(
    ...validatePodTemplateSpec(template, spec.child('template'), {
      restartPolicies: ['Always'],
      noActiveDeadlineFor: 'ReplicationController',
    })
  );
  return errs;
}

/** ValidateReplicationControllerStatus. */
export function validateReplicationControllerStatus(obj: ApiObject): FieldError[] {
  const st = objectAt(obj, 'status');
  const p = newPath('status');
  const errs: FieldError[] = [];
  for (const k of [
    'replicas',
    'fullyLabeledReplicas',
    'readyReplicas',
    'availableReplicas',
    'observedGeneration',
  ])
    errs.push(...nonNegative(st[k], p.child(k)));
  const n = (k: string): number => (typeof st[k] === 'number' ? st[k] : 0);
  for (const k of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'])
    if (n(k) > n('replicas'))
      errs.push(fieldInvalid(p.child(k), n(k), 'cannot be greater than status.replicas'));
  if (n('availableReplicas') > n('readyReplicas'))
    errs.push(
      fieldInvalid(
        p.child('availableReplicas'),
        n('availableReplicas'),
        'cannot be greater than readyReplicas'
      )
    );
  return errs;
}

export const replicationControllerStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: true }),
  validate: validateReplicationControllerSpec,
  validateUpdate: (obj) => [
    ...validateReplicationControllerSpec(obj),
    ...validateReplicationControllerStatus(obj),
  ],
};
