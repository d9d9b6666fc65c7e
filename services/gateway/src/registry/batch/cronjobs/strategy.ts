// CronJobs (k8s pkg/registry/batch/cronjob/strategy.go, pkg/apis/batch/validation
// ValidateCronJobCreate / ValidateCronJobUpdate): a schedule the cron parser accepts, a real time
// zone, the concurrency policy, non-negative limits, and a job template whose selector is left to
// each Job (ValidateJobTemplateSpec).
import { fieldInvalid, fieldNotSupported, fieldRequired, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { validatePodTemplateSpec } from '../../core/podtemplates/validate-pod-template.js';
import { nonNegative } from '../../core/validation.js';
import { isObject, objectAt } from '../../unstructured.js';
import { validateJobSpecCommon } from '../jobs/strategy.js';
import { cronScheduleError } from './cron-schedule.js';

const spec = newPath('spec');

function validTimeZone(tz: string): string | undefined {
  if (tz.toLowerCase() === 'local')
    return 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return undefined;
  } catch {
    return `unknown time zone ${tz}`;
  }
}

export function validateCronJob(obj: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const name = obj.metadata.name ?? '';
  // A Job's name is the CronJob's plus 11 characters, within a 63-character label.
  if (name.length > 52)
    errs.push(
      fieldInvalid(newPath('metadata', 'name'), name, 'must be no more than 52 characters')
    );
  const s = objectAt(obj, 'spec');
  const schedule = s['schedule'];
  if (typeof schedule !== 'string' || schedule === '')
    errs.push(fieldRequired(spec.child('schedule'), ''));
  else {
    const err = cronScheduleError(schedule);
    if (err) errs.push(fieldInvalid(spec.child('schedule'), schedule, err));
  }
  const tz = s['timeZone'];
  if (typeof tz === 'string') {
    if (typeof schedule === 'string' && /(^|\s)(CRON_)?TZ=/.test(schedule))
      errs.push(
        fieldInvalid(
          spec.child('timeZone'),
          tz,
          'cannot use both timeZone field and TZ or CRON_TZ in schedule'
        )
      );
    const err = validTimeZone(tz);
    if (err) errs.push(fieldInvalid(spec.child('timeZone'), tz, err));
  }
  const policy = s['concurrencyPolicy'];
  if (policy === undefined || policy === '')
    errs.push(fieldRequired(spec.child('concurrencyPolicy'), ''));
  else if (!['Allow', 'Forbid', 'Replace'].includes(String(policy)))
    errs.push(
      fieldNotSupported(spec.child('concurrencyPolicy'), policy, ['Allow', 'Forbid', 'Replace'])
    );
  for (const k of [
    'startingDeadlineSeconds',
    'successfulJobsHistoryLimit',
    'failedJobsHistoryLimit',
  ])
    errs.push(...nonNegative(s[k], spec.child(k)));
  const jt = s['jobTemplate'];
  const jp = spec.child('jobTemplate', 'spec');
  if (!isObject(jt)) {
    errs.push(fieldRequired(spec.child('jobTemplate'), ''));
    return errs;
  }
  const js = objectAt(jt, 'spec');
  errs.push(...validateJobSpecCommon(js, jp));
  if (js['selector'] !== undefined)
    errs.push(
      fieldInvalid(jp.child('selector'), js['selector'], '`selector` will be auto-generated')
    );
  if (js['manualSelector'] === true)
    errs.push(fieldNotSupported(jp.child('manualSelector'), true, ['nil', 'false']));
  if (!isObject(js['template'])) errs.push(fieldRequired(jp.child('template'), ''));
  else
    errs.push(
      ...validatePodTemplateSpec(js['template'], jp.child('template'), {
        restartPolicies: ['OnFailure', 'Never'],
      })
    );
  return errs;
}

export const cronJobStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: true }),
  prepareForCreate(obj) {
    obj['status'] = {};
  },
  validate: validateCronJob,
  validateUpdate: (obj) => validateCronJob(obj),
};
