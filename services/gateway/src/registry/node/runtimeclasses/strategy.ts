// RuntimeClasses (k8s pkg/registry/node/runtimeclass/strategy.go, pkg/apis/node/validation
// ValidateRuntimeClass / ValidateRuntimeClassUpdate): a DNS-label handler, immutable;
// non-negative overhead quantities; scheduling's node selector labels and tolerations.
import { fieldInvalid, fieldNotSupported, fieldRequired, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { isQualifiedName, isValidLabelValue } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { nonNegativeQuantity } from '../../core/validation.js';
import { list, obj, str } from '../../unstructured.js';
import { dnsLabel, immutable } from '../../validation.js';

const tolerationOperators = ['Equal', 'Exists'];
const taintEffects = ['NoExecute', 'NoSchedule', 'PreferNoSchedule'];

/** ValidateRuntimeClass. */
export function validateRuntimeClass(rc: ApiObject): FieldError[] {
  const handler = str(rc['handler']);
  const errs = handler
    ? dnsLabel(handler, newPath('handler'))
    : [fieldRequired(newPath('handler'), '')];
  for (const [k, v] of Object.entries(obj(obj(rc['overhead'])['podFixed'])))
    errs.push(...nonNegativeQuantity(v, newPath('overhead', 'podFixed').key(k)));
  const scheduling = obj(rc['scheduling']);
  const sp = newPath('scheduling', 'nodeSelector');
  for (const [k, v] of Object.entries(obj(scheduling['nodeSelector']))) {
    for (const m of isQualifiedName(k)) errs.push(fieldInvalid(sp, k, m));
    for (const m of isValidLabelValue(str(v))) errs.push(fieldInvalid(sp.key(k), v, m));
  }
  list(scheduling['tolerations']).forEach((t, i) => {
    const tol = obj(t);
    const p = newPath('scheduling', 'tolerations').index(i);
    const key = str(tol['key']);
    if (key) for (const m of isQualifiedName(key)) errs.push(fieldInvalid(p.child('key'), key, m));
    const op = tol['operator'];
    if (!key && op !== 'Exists')
      errs.push(
        fieldInvalid(
          p.child('operator'),
          op ?? '',
          'operator must be Exists when `key` is empty, which means "match all values and all keys"'
        )
      );
    if (op !== undefined && !tolerationOperators.includes(String(op)))
      errs.push(fieldNotSupported(p.child('operator'), op, tolerationOperators));
    if (op === 'Exists' && str(tol['value']))
      errs.push(
        fieldInvalid(
          p.child('operator'),
          tol['value'],
          "value must be empty when `operator` is 'Exists'"
        )
      );
    const effect = tol['effect'];
    if (effect !== undefined && effect !== '' && !taintEffects.includes(String(effect)))
      errs.push(fieldNotSupported(p.child('effect'), effect, taintEffects));
  });
  return errs;
}

export const runtimeClassStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  validate: validateRuntimeClass,
  validateUpdate: (next, old) => [
    ...validateRuntimeClass(next),
    ...immutable(next['handler'], old['handler'], newPath('handler')),
  ],
};
