// CSIDrivers (k8s pkg/registry/storage/csidriver/strategy.go, pkg/apis/storage/validation
// ValidateCSIDriver / ValidateCSIDriverUpdate): a CSI driver name; attachRequired and
// podInfoOnMount set (defaulted); fsGroupPolicy and volumeLifecycleModes from their values;
// token requests with distinct audiences and 10 minutes to 2^32 seconds; attachRequired and
// volumeLifecycleModes immutable (field paths name real fields where upstream's do not: upstream says
// `spec.attachedRequired`).
import {
  fieldDuplicate,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { list, obj, str } from '../../unstructured.js';
import { immutable } from '../../validation.js';
import { validateCSIDriverName } from '../validate-csi-driver-name.js';

const fsGroupPolicies = ['File', 'None', 'ReadWriteOnceWithFSType'];
const lifecycleModes = ['Ephemeral', 'Persistent'];

/** ValidateCSIDriver. */
export function validateCSIDriver(driver: ApiObject): FieldError[] {
  const errs = validateCSIDriverName(str(driver.metadata.name), newPath('metadata', 'name'));
  const spec = obj(driver['spec']);
  const p = newPath('spec');
  for (const f of ['attachRequired', 'podInfoOnMount'])
    if (typeof spec[f] !== 'boolean') errs.push(fieldRequired(p.child(f), ''));
  const policy = spec['fsGroupPolicy'];
  if (policy !== undefined && !fsGroupPolicies.includes(String(policy)))
    errs.push(fieldNotSupported(p.child('fsGroupPolicy'), policy, fsGroupPolicies));
  list(spec['volumeLifecycleModes']).forEach((m, i) => {
    if (!lifecycleModes.includes(String(m)))
      errs.push(fieldNotSupported(p.child('volumeLifecycleModes').index(i), m, lifecycleModes));
  });
  const audiences = new Set<string>();
  list(spec['tokenRequests']).forEach((t, i) => {
    const tr = obj(t);
    const tp = p.child('tokenRequests').index(i);
    const audience = str(tr['audience']);
    if (audiences.has(audience)) errs.push(fieldDuplicate(tp.child('audience'), audience));
    audiences.add(audience);
    const exp = tr['expirationSeconds'];
    if (typeof exp === 'number') {
      if (exp < 600)
        errs.push(
          fieldInvalid(
            tp.child('expirationSeconds'),
            exp,
            'may not specify a duration less than 10 minutes'
          )
        );
      if (exp > 2 ** 32)
        errs.push(
          fieldInvalid(
            tp.child('expirationSeconds'),
            exp,
            'may not specify a duration larger than 2^32 seconds'
          )
        );
    }
  });
  return errs;
}

export const csiDriverStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  validate: validateCSIDriver,
  validateUpdate: (next, old) => {
    const spec = obj(next['spec']);
    const oldSpec = obj(old['spec']);
    return [
      ...validateCSIDriver(next),
      ...immutable(
        spec['attachRequired'],
        oldSpec['attachRequired'],
        newPath('spec', 'attachRequired')
      ),
      ...immutable(
        spec['volumeLifecycleModes'],
        oldSpec['volumeLifecycleModes'],
        newPath('spec', 'volumeLifecycleModes')
      ),
    ];
  },
};
