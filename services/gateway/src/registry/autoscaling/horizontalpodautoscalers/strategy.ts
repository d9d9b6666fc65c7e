// HorizontalPodAutoscalers (k8s pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go,
// pkg/apis/autoscaling/validation ValidateHorizontalPodAutoscaler). The Store hands this
// strategy the storage version, autoscaling/v2 (the internal version's shape), whichever
// version the client wrote, so field paths are v2's as upstream's are the internal ones.
import {
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { isValidPathSegmentName } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { nonNegative } from '../../core/validation.js';
import { isObject, listAt, objectAt } from '../../unstructured.js';
import type { Json } from '../../unstructured.js';

const metricTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const sourceField: Record<string, string> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  External: 'external',
  ContainerResource: 'containerResource',
};

/** The sign of a quantity ("500m" 1, "0" 0, "-1" -1). */
function sign(q: unknown): number {
  const n = typeof q === 'number' ? q : Number.parseFloat(String(q));
  return Number.isNaN(n) ? 0 : Math.sign(n);
}

/** ValidateCrossVersionObjectReference. */
export function validateObjectReference(ref: unknown, p: FieldPath): FieldError[] {
  const r = isObject(ref) ? ref : {};
  const errs: FieldError[] = [];
  for (const k of ['kind', 'name']) {
    const v = r[k];
    if (typeof v !== 'string' || v === '') errs.push(fieldRequired(p.child(k), ''));
    else for (const m of isValidPathSegmentName(v)) errs.push(fieldInvalid(p.child(k), v, m));
  }
  return errs;
}

function validateMetricTarget(t: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = t['type'];
  if (type === undefined || type === '')
    errs.push(fieldRequired(p.child('type'), 'must specify a metric target type'));
  else if (!['Utilization', 'Value', 'AverageValue'].includes(String(type)))
    errs.push(
      fieldInvalid(p.child('type'), type, 'must be either Utilization, Value, or AverageValue')
    );
  if (t['value'] !== undefined && sign(t['value']) !== 1)
    errs.push(fieldInvalid(p.child('value'), t['value'], 'must be positive'));
  if (t['averageValue'] !== undefined && sign(t['averageValue']) !== 1)
    errs.push(fieldInvalid(p.child('averageValue'), t['averageValue'], 'must be positive'));
  const u = t['averageUtilization'];
  if (typeof u === 'number' && u < 1)
    errs.push(fieldInvalid(p.child('averageUtilization'), u, 'must be greater than 0'));
  return errs;
}

function validateMetricIdentifier(m: Json, p: FieldPath): FieldError[] {
  return typeof m['name'] === 'string' && m['name'] !== ''
    ? []
    : [fieldRequired(p.child('name'), 'must specify a metric name')];
}

function validateSource(type: string, src: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const target = objectAt(src, 'target');
  const tp = p.child('target');
  switch (type) {
    case 'Object':
      errs.push(...validateObjectReference(src['describedObject'], p.child('describedObject')));
      errs.push(...validateMetricIdentifier(objectAt(src, 'metric'), p.child('metric')));
      errs.push(...validateMetricTarget(target, tp));
      if (target['value'] === undefined && target['averageValue'] === undefined)
        errs.push(
          fieldRequired(tp.child('averageValue'), 'must set either a target value or averageValue')
        );
      break;
    case 'Pods':
      errs.push(...validateMetricIdentifier(objectAt(src, 'metric'), p.child('metric')));
      errs.push(...validateMetricTarget(target, tp));
      if (target['averageValue'] === undefined)
        errs.push(
          fieldRequired(tp.child('averageValue'), 'must specify a positive target averageValue')
        );
      break;
    case 'External':
      errs.push(...validateMetricIdentifier(objectAt(src, 'metric'), p.child('metric')));
      errs.push(...validateMetricTarget(target, tp));
      if (target['value'] === undefined && target['averageValue'] === undefined)
        errs.push(
          fieldRequired(
            tp.child('averageValue'),
            'must set either a target value for metric or a per-pod target'
          )
        );
      if (target['value'] !== undefined && target['averageValue'] !== undefined)
        errs.push(
          fieldForbidden(
            tp.child('value'),
            'may not set both a target value for metric and a per-pod target'
          )
        );
      break;
    default: {
      // Resource, ContainerResource
      if (typeof src['name'] !== 'string' || src['name'] === '')
        errs.push(fieldRequired(p.child('name'), 'must specify a resource name'));
      if (
        type === 'ContainerResource' &&
        (typeof src['container'] !== 'string' || src['container'] === '')
      )
        errs.push(fieldRequired(p.child('container'), 'must specify a container'));
      if (target['averageUtilization'] === undefined && target['averageValue'] === undefined)
        errs.push(
          fieldRequired(
            tp.child('averageUtilization'),
            'must set either a target raw value or a target utilization'
          )
        );
      errs.push(...validateMetricTarget(target, tp));
      if (target['averageUtilization'] !== undefined && target['averageValue'] !== undefined)
        errs.push(
          fieldForbidden(
            tp.child('averageValue'),
            'may not set both a target raw value and a target utilization'
          )
        );
    }
  }
  return errs;
}

/** validateMetricSpec: the type and exactly its source. */
function validateMetricSpec(m: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = typeof m['type'] === 'string' ? m['type'] : '';
  if (type === '') errs.push(fieldRequired(p.child('type'), 'must specify a metric source type'));
  else if (!metricTypes.includes(type))
    errs.push(fieldNotSupported(p.child('type'), type, metricTypes));
  const present = Object.values(sourceField).filter((f) => m[f] !== undefined && m[f] !== null);
  const expected = sourceField[type];
  if (expected) {
    if (!isObject(m[expected]))
      errs.push(
        fieldRequired(p.child(expected), 'must populate information for the given metric source')
      );
    else errs.push(...validateSource(type, m[expected], p.child(expected)));
  }
  if (present.length !== 1 || (expected && present[0] !== expected))
    for (const f of present)
      if (f !== expected)
        errs.push(fieldForbidden(p.child(f), 'must populate the given metric source only'));
  return errs;
}

function validateScalingRules(rules: unknown, p: FieldPath): FieldError[] {
  if (!isObject(rules)) return [];
  const errs: FieldError[] = [];
  const w = rules['stabilizationWindowSeconds'];
  if (typeof w === 'number' && w < 0)
    errs.push(
      fieldInvalid(
        p.child('stabilizationWindowSeconds'),
        w,
        'must be greater than or equal to zero'
      )
    );
  if (typeof w === 'number' && w > 3600)
    errs.push(
      fieldInvalid(p.child('stabilizationWindowSeconds'), w, 'must be less than or equal to 3600')
    );
  const select = rules['selectPolicy'];
  if (select !== undefined && !['Max', 'Min', 'Disabled'].includes(String(select)))
    errs.push(fieldNotSupported(p.child('selectPolicy'), select, ['Disabled', 'Max', 'Min']));
  const policies = listAt(rules, 'policies');
  if (rules['policies'] !== undefined && policies.length === 0)
    errs.push(fieldRequired(p.child('policies'), 'must specify at least one Policy'));
  policies.forEach((pol, i) => {
    const pp = p.child('policies').index(i);
    const o = isObject(pol) ? pol : {};
    if (o['type'] !== 'Pods' && o['type'] !== 'Percent')
      errs.push(fieldNotSupported(pp.child('type'), o['type'], ['Percent', 'Pods']));
    if (typeof o['value'] !== 'number' || o['value'] <= 0)
      errs.push(fieldInvalid(pp.child('value'), o['value'], 'must be greater than zero'));
    const period = o['periodSeconds'];
    if (typeof period !== 'number' || period <= 0)
      errs.push(fieldInvalid(pp.child('periodSeconds'), period, 'must be greater than zero'));
    else if (period > 1800)
      errs.push(
        fieldInvalid(pp.child('periodSeconds'), period, 'must be less than or equal to 1800')
      );
  });
  return errs;
}

export function validateHorizontalPodAutoscaler(obj: ApiObject): FieldError[] {
  const s = objectAt(obj, 'spec');
  const p = newPath('spec');
  const errs: FieldError[] = [];
  const min = s['minReplicas'];
  const max = s['maxReplicas'];
  if (typeof min === 'number' && min < 1)
    errs.push(fieldInvalid(p.child('minReplicas'), min, 'must be greater than or equal to 1'));
  if (typeof max !== 'number' || max < 1)
    errs.push(fieldInvalid(p.child('maxReplicas'), max ?? 0, 'must be greater than 0'));
  else if (typeof min === 'number' && max < min)
    errs.push(
      fieldInvalid(p.child('maxReplicas'), max, 'must be greater than or equal to `minReplicas`')
    );
  errs.push(...validateObjectReference(s['scaleTargetRef'], p.child('scaleTargetRef')));
  listAt(s, 'metrics').forEach((m, i) =>
    errs.push(...validateMetricSpec(isObject(m) ? m : {}, p.child('metrics').index(i)))
  );
  const behavior = objectAt(s, 'behavior');
  errs.push(...validateScalingRules(behavior['scaleUp'], p.child('behavior', 'scaleUp')));
  errs.push(...validateScalingRules(behavior['scaleDown'], p.child('behavior', 'scaleDown')));
  const st = objectAt(obj, 'status');
  for (const k of ['currentReplicas', 'desiredReplicas'])
    errs.push(...nonNegative(st[k], newPath('status').child(k)));
  return errs;
}

export const horizontalPodAutoscalerStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: true }),
  validate: validateHorizontalPodAutoscaler,
  validateUpdate: validateHorizontalPodAutoscaler,
};
