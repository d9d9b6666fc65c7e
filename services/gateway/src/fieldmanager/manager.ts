// The role every link of the field manager chain plays (k8s managedfields/internal Manager):
// update records a non-apply write, apply merges an applied configuration; each link does its
// part and calls the next.
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Managed } from './managed-fields.js';

/** object: the object to store; undefined from apply when nothing changes. */
export interface ManagerResult {
  object: ApiObject | undefined;
  managed: Managed;
}

export interface Manager {
  update(liveObj: ApiObject, newObj: ApiObject, managed: Managed, manager: string): ManagerResult;
  apply(
    liveObj: ApiObject,
    appliedObj: ApiObject,
    managed: Managed,
    manager: string,
    force: boolean
  ): ManagerResult;
}
