// Jobs (k8s pkg/registry/batch/job/strategy.go, pkg/apis/batch/validation ValidateJob /
// ValidateJobUpdate / ValidateJobStatusUpdate). Unless spec.manualSelector is true, the
// selector is generated on create from the Job's uid and the template gets the job-name and
// controller-uid labels (generateSelector); a selector the client set must be the generated one.
import { fieldInvalid, fieldNotSupported, fieldRequired, newPath } from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { sameJson } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import {
  validatePodTemplateSpec,
  validateSelectorAndTemplate,
} from '../../core/podtemplates/validate-pod-template.js';
import { nonNegative } from '../../core/validation.js';
import { isObject, listAt, objectAt, specOf } from '../../unstructured.js';
import type { Json } from '../../unstructured.js';
import { immutable } from '../../validation.js';

export const jobNameLabel = 'batch.kubernetes.io/job-name';
export const legacyJobNameLabel = 'job-name';
export const controllerUidLabel = 'batch.kubernetes.io/controller-uid';
export const legacyControllerUidLabel = 'controller-uid';

const spec = newPath('spec');
const restartPolicies = ['OnFailure', 'Never'];

/** generateSelector: the template's labels and the selector from the Job's name and uid. */
function generateSelector(job: ApiObject): void {
  const s = specOf(job);
  const template = isObject(s['template']) ? s['template'] : (s['template'] = {});
  const meta = isObject(template['metadata']) ? template['metadata'] : (template['metadata'] = {});
  const labels = (isObject(meta['labels']) ? meta['labels'] : (meta['labels'] = {})) as Json;
  const name = job.metadata.name ?? '';
  const uid = job.metadata.uid ?? '';
  for (const l of [legacyJobNameLabel, jobNameLabel]) labels[l] ??= name;
  for (const l of [legacyControllerUidLabel, controllerUidLabel]) labels[l] ??= uid;
  const selector = isObject(s['selector']) ? s['selector'] : (s['selector'] = {});
  const matchLabels = (
    isObject(selector['matchLabels']) ? selector['matchLabels'] : (selector['matchLabels'] = {})
  ) as Json;
  matchLabels[controllerUidLabel] ??= uid;
}

/** validateGeneratedSelector: a selector the client set must be the one generated. */
function validateGeneratedSelector(job: ApiObject): FieldError[] {
  const s = objectAt(job, 'spec');
  if (s['manualSelector'] === true || !isObject(s['selector'])) return [];
  const uid = job.metadata.uid ?? '';
  const labels = objectAt(objectAt(s['template'], 'metadata'), 'labels');
  const matchLabels = objectAt(s['selector'], 'matchLabels');
  const errs: FieldError[] = [];
  if (labels[controllerUidLabel] !== uid)
    errs.push(
      fieldInvalid(
        spec.child('template', 'metadata').child('labels'),
        labels,
        '`selector` not auto-generated'
      )
    );
  if (matchLabels[controllerUidLabel] !== uid)
    errs.push(fieldInvalid(spec.child('selector'), s['selector'], '`selector` not auto-generated'));
  return errs;
}

/** validateJobSpec: what a Job and a CronJob's job template share. */
export function validateJobSpecCommon(s: Json, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of [
    'parallelism',
    'completions',
    'activeDeadlineSeconds',
    'backoffLimit',
    'ttlSecondsAfterFinished',
    'backoffLimitPerIndex',
    'maxFailedIndexes',
  ])
    errs.push(...nonNegative(s[k], path.child(k)));
  const mode = s['completionMode'];
  if (mode !== undefined && mode !== 'NonIndexed' && mode !== 'Indexed')
    errs.push(fieldNotSupported(path.child('completionMode'), mode, ['NonIndexed', 'Indexed']));
  if (mode === 'Indexed' && s['completions'] === undefined)
    errs.push(fieldRequired(path.child('completions'), 'when completion mode is Indexed'));
  const replacement = s['podReplacementPolicy'];
  if (
    replacement !== undefined &&
    replacement !== 'TerminatingOrFailed' &&
    replacement !== 'Failed'
  )
    errs.push(
      fieldNotSupported(path.child('podReplacementPolicy'), replacement, [
        'Failed',
        'TerminatingOrFailed',
      ])
    );
  listAt(objectAt(s, 'podFailurePolicy'), 'rules').forEach((r, i) => {
    const p = path.child('podFailurePolicy', 'rules').index(i);
    const action = isObject(r) ? r['action'] : undefined;
    if (!['FailJob', 'FailIndex', 'Ignore', 'Count'].includes(String(action)))
      errs.push(
        fieldNotSupported(p.child('action'), action, ['Count', 'FailIndex', 'FailJob', 'Ignore'])
      );
  });
  return errs;
}

export function validateJobSpec(obj: ApiObject): FieldError[] {
  const s = objectAt(obj, 'spec');
  const errs = validateJobSpecCommon(s, spec);
  errs.push(...validateSelectorAndTemplate(s, spec, { emptyInvalidFor: 'job', restartPolicies }));
  errs.push(...validateGeneratedSelector(obj));
  return errs;
}

/** ValidateJobStatus. */
export function validateJobStatus(obj: ApiObject): FieldError[] {
  const st = objectAt(obj, 'status');
  const p = newPath('status');
  const errs: FieldError[] = [];
  for (const k of ['active', 'succeeded', 'failed', 'ready', 'terminating'])
    errs.push(...nonNegative(st[k], p.child(k)));
  return errs;
}

/** The template of a Job may change only while it is suspended (ValidateJobSpecUpdate). */
function validateJobSpecUpdate(s: Json, o: Json): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...immutable(s['selector'], o['selector'], spec.child('selector')));
  for (const k of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'manualSelector'])
    errs.push(...immutable(s[k], o[k], spec.child(k)));
  if (!(o['suspend'] === true && s['suspend'] === true) && !sameJson(s['template'], o['template']))
    errs.push(...immutable(s['template'], o['template'], spec.child('template')));
  if (s['completionMode'] !== 'Indexed')
    errs.push(...immutable(s['completions'], o['completions'], spec.child('completions')));
  return errs;
}

export const jobStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: true }),
  prepareForCreate(obj) {
    obj['status'] = {};
    if (objectAt(obj, 'spec')['manualSelector'] !== true) generateSelector(obj);
  },
  validate: (obj) => validateJobSpec(obj),
  validateUpdate: (obj, old) => [
    ...validateJobSpecCommon(objectAt(obj, 'spec'), spec),
    ...validatePodTemplateSpec(
      objectAt(objectAt(obj, 'spec'), 'template'),
      spec.child('template'),
      { restartPolicies }
    ),
    ...validateJobSpecUpdate(objectAt(obj, 'spec'), objectAt(old, 'spec')),
    ...validateJobStatus(obj),
  ],
};
