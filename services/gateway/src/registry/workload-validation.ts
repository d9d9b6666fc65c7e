// Validation shared by the workload kinds, as upstream's pkg/apis/apps/validation and the
// pod-template parts of pkg/apis/core/validation write it: selectors that must match the
// template's labels, the restart policies a controller allows, non-negative counts,
// int-or-percent values and immutable fields, with upstream's field paths and messages.
import {
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
} from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import { fieldImmutableErrorMsg, isNegativeErrorMsg, sameJson } from '@orch/apimachinery/meta';
import type { ApiObject } from '@orch/apimachinery/meta';
import { labelSelectorFromLabelSelectorObject } from '@orch/apimachinery/selectors';
import type { LabelSelectorObject } from '@orch/apimachinery/selectors';
import { validateLabelSelector } from './admissionregistration/validate-label-selector.js';
import { validatePodSpec } from './core/pods/validate-pod-spec.js';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const objectAt = (o: unknown, key: string): Json =>
  isObject(o) && isObject(o[key]) ? o[key] : {};
export const listAt = (o: unknown, key: string): unknown[] =>
  isObject(o) && Array.isArray(o[key]) ? o[key] : [];
/** The spec of an object, created when missing (strategies write defaults into it). */
export const specOf = (o: ApiObject): Json => (isObject(o['spec']) ? o['spec'] : (o['spec'] = {}));

/** ValidateNonnegativeField. */
export function nonNegative(value: unknown, path: FieldPath): FieldError[] {
  return typeof value === 'number' && value < 0
    ? [fieldInvalid(path, value, isNegativeErrorMsg)]
    : [];
}

/** ValidateImmutableField: `<path>: Invalid value: <new>: field is immutable`. */
export function immutable(next: unknown, old: unknown, path: FieldPath): FieldError[] {
  return sameJson(next ?? null, old ?? null)
    ? []
    : [fieldInvalid(path, next, fieldImmutableErrorMsg)];
}

const percentMsg =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** ValidatePositiveIntOrPercent and IsNotMoreThan100Percent. */
export function intOrPercent(
  value: unknown,
  path: FieldPath,
  opts: { max100?: boolean } = {}
): FieldError[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'number') return nonNegative(value, path);
  if (typeof value !== 'string' || !/^[0-9]+%$/.test(value)) {
    return [fieldInvalid(path, value, percentMsg)];
  }
  if (opts.max100 && Number(value.slice(0, -1)) > 100) {
    return [fieldInvalid(path, value, 'must not be greater than 100%')];
  }
  return [];
}

/** The value of an int-or-percent of a total (GetScaledValueFromIntOrPercent, rounding up). */
export function intOrPercentValue(value: unknown, total: number): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.endsWith('%')) {
    return Math.ceil((Number(value.slice(0, -1)) * total) / 100);
  }
  return 0;
}

/** Whether a metav1.LabelSelector matches a label set (an invalid selector matches nothing). */
export function selectorMatches(selector: unknown, labels: unknown): boolean {
  try {
    const sel = labelSelectorFromLabelSelectorObject(selector as LabelSelectorObject);
    return sel.matches(isObject(labels) ? (labels as Record<string, string>) : {});
  } catch {
    return false;
  }
}

const emptySelector = (sel: Json): boolean =>
  Object.keys(objectAt(sel, 'matchLabels')).length === 0 &&
  listAt(sel, 'matchExpressions').length === 0;

export interface SelectorTemplateOptions {
  /** The kind's name in "empty selector is invalid for <kind>" (none: an empty selector is allowed). */
  emptyInvalidFor?: string;
  /** The restart policies the controller runs (NotSupported otherwise). */
  restartPolicies: readonly string[];
  /** "activeDeadlineSeconds in <kind> is not Supported" (none: allowed). */
  noActiveDeadlineFor?: string;
  /** Whether the selector may be left out (job templates: generated). */
  selectorOptional?: boolean;
}

/**
 * The selector and pod template of a workload spec (ValidateStatefulSetSpec,
 * ValidateDaemonSetSpec, ValidateJobSpec, ValidateDeploymentSpec...): the selector present,
 * valid and non-empty, matching the template's labels; the template present, with containers
 * and a restart policy the controller runs.
 */
export function validateSelectorAndTemplate(
  spec: Json,
  path: FieldPath,
  opts: SelectorTemplateOptions
): FieldError[] {
  const errs: FieldError[] = [];
  const selector = spec['selector'];
  const template = spec['template'];
  if (!isObject(selector)) {
    if (!opts.selectorOptional) errs.push(fieldRequired(path.child('selector'), ''));
  } else {
    errs.push(...validateLabelSelector(selector, {}, path.child('selector')));
    if (opts.emptyInvalidFor && emptySelector(selector)) {
      errs.push(
        fieldInvalid(
          path.child('selector'),
          selector,
          `empty selector is invalid for ${opts.emptyInvalidFor}`
        )
      );
    }
  }
  if (!isObject(template)) {
    errs.push(fieldRequired(path.child('template'), ''));
    return errs;
  }
  const labels = objectAt(template, 'metadata')['labels'];
  if (isObject(selector) && !emptySelector(selector) && !selectorMatches(selector, labels)) {
    errs.push(
      fieldInvalid(
        path.child('template', 'metadata', 'labels'),
        labels ?? {},
        '`selector` does not match template `labels`'
      )
    );
  }
  errs.push(...validatePodTemplateSpec(template, path.child('template'), opts));
  return errs;
}

/** ValidatePodTemplateSpec: the pod spec (validatePodSpec) and the controller's restart policy. */
export function validatePodTemplateSpec(
  template: Json,
  path: FieldPath,
  opts: Pick<SelectorTemplateOptions, 'restartPolicies' | 'noActiveDeadlineFor'>
): FieldError[] {
  const errs: FieldError[] = [];
  const podSpec = objectAt(template, 'spec');
  const specPath = path.child('spec');
  errs.push(...validatePodSpec(podSpec, specPath));
  const restartPolicy = podSpec['restartPolicy'] ?? 'Always';
  if (typeof restartPolicy === 'string' && !opts.restartPolicies.includes(restartPolicy)) {
    errs.push(
      fieldNotSupported(specPath.child('restartPolicy'), restartPolicy, opts.restartPolicies)
    );
  }
  if (opts.noActiveDeadlineFor && podSpec['activeDeadlineSeconds'] !== undefined) {
    errs.push(
      fieldForbidden(
        specPath.child('activeDeadlineSeconds'),
        `activeDeadlineSeconds in ${opts.noActiveDeadlineFor} is not Supported`
      )
    );
  }
  return errs;
}
