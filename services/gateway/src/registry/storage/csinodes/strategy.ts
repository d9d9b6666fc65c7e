// CSINodes (k8s pkg/registry/storage/csinode/strategy.go, pkg/apis/storage/validation
// ValidateCSINode / ValidateCSINodeUpdate): drivers with distinct CSI driver names, a nodeID of
// at most 192 characters, qualified and distinct topology keys; a driver's nodeID and
// topologyKeys never change while it is listed.
import {
  fieldDuplicate,
  fieldInvalid,
  fieldRequired,
  fieldTooLong,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { isQualifiedName } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { list, obj, str } from '../../unstructured.js';
import { immutable } from '../../validation.js';
import { validateCSIDriverName } from '../validate-csi-driver-name.js';

export const csiNodeIDMaxLength = 192;

/** ValidateCSINode. */
export function validateCSINode(node: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list(obj(node['spec'])['drivers']).forEach((d, i) => {
    const driver = obj(d);
    const p = newPath('spec', 'drivers').index(i);
    const name = str(driver['name']);
    errs.push(...validateCSIDriverName(name, p.child('name')));
    if (names.has(name)) errs.push(fieldDuplicate(p.child('name'), name));
    names.add(name);
    const nodeID = str(driver['nodeID']);
    if (!nodeID) errs.push(fieldRequired(p.child('nodeID'), nodeID));
    else if (nodeID.length > csiNodeIDMaxLength)
      errs.push(fieldTooLong(p.child('nodeID'), csiNodeIDMaxLength));
    const keys = new Set<string>();
    list(driver['topologyKeys']).forEach((k, j) => {
      const key = str(k);
      const kp = p.child('topologyKeys').index(j);
      if (!key) errs.push(fieldRequired(kp, key));
      else for (const m of isQualifiedName(key)) errs.push(fieldInvalid(kp, key, m));
      if (keys.has(key)) errs.push(fieldDuplicate(kp, key));
      keys.add(key);
    });
    const count = obj(driver['allocatable'])['count'];
    if (typeof count === 'number' && count < 0)
      errs.push(
        fieldInvalid(p.child('allocatable', 'count'), count, 'must be greater than or equal to 0')
      );
  });
  return errs;
}

/** ValidateCSINodeUpdate. */
export function validateCSINodeUpdate(next: ApiObject, old: ApiObject): FieldError[] {
  const errs = validateCSINode(next);
  const now = new Map(list(obj(next['spec'])['drivers']).map((d) => [str(obj(d)['name']), obj(d)]));
  list(obj(old['spec'])['drivers']).forEach((d) => {
    const before = obj(d);
    const after = now.get(str(before['name']));
    if (!after) return;
    const i = list(obj(next['spec'])['drivers']).findIndex((x) => obj(x) === after);
    const p = newPath('spec', 'drivers').index(i);
    errs.push(...immutable(after['nodeID'], before['nodeID'], p.child('nodeID')));
    errs.push(...immutable(after['topologyKeys'], before['topologyKeys'], p.child('topologyKeys')));
  });
  return errs;
}

export const csiNodeStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  validate: validateCSINode,
  validateUpdate: validateCSINodeUpdate,
};
