// The pod-template parts of upstream's workload validation (pkg/apis/core/validation
// ValidatePodTemplateSpec, and the selector-and-template checks of ValidateStatefulSetSpec,
// ValidateDaemonSetSpec, ValidateJobSpec...): selectors that must match the template's labels,
// the restart policies a controller allows, with upstream's field paths and messages.
import {
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
} from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import { labelSelectorFromLabelSelectorObject } from '@orch/apimachinery/selectors';
import type { LabelSelectorObject } from '@orch/apimachinery/selectors';
import { validateLabelSelector } from '../../admissionregistration/validate-label-selector.js';
import { isObject, listAt, objectAt } from '../../unstructured.js';
import type { Json } from '../../unstructured.js';
import { validatePodSpec } from '../pods/validate-pod-spec.js';

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
  /**
   * The pod spec is not validated (StatefulSets: upstream's ValidatePodTemplateSpecForStatefulSet
   * checks only the restart policy and activeDeadlineSeconds, since the containers mount volumes
   * that the volumeClaimTemplates give and the pod spec does not name; the pods it creates are
   * validated as pods).
   */
  podSpecUnchecked?: boolean;
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
  opts: Pick<
    SelectorTemplateOptions,
    'restartPolicies' | 'noActiveDeadlineFor' | 'podSpecUnchecked'
  >
): FieldError[] {
  const errs: FieldError[] = [];
  const podSpec = objectAt(template, 'spec');
  const specPath = path.child('spec');
  if (!opts.podSpecUnchecked) errs.push(...validatePodSpec(podSpec, specPath));
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
