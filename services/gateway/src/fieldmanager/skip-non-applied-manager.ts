// k8s managedfields/internal skipnonapplied.go: an object stored without managedFields is not
// tracked by later updates (creates always are: upstream's probability 1); the first apply to
// it records what it already had under `before-first-apply`, so that the applier does not take
// fields it never set.
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Managed } from './managed-fields.js';
import type { Manager, ManagerResult } from './manager.js';

export const beforeFirstApplyManagerName = 'before-first-apply';

export class SkipNonAppliedManager implements Manager {
  constructor(
    private readonly next: Manager,
    private readonly emptyObject: () => ApiObject
  ) {}

  update(liveObj: ApiObject, newObj: ApiObject, managed: Managed, manager: string): ManagerResult {
    if (managed.fields.size === 0 && liveObj.metadata?.uid) return { object: newObj, managed };
    return this.next.update(liveObj, newObj, managed, manager);
  }

  apply(
    liveObj: ApiObject,
    appliedObj: ApiObject,
    managed: Managed,
    manager: string,
    force: boolean
  ): ManagerResult {
    if (managed.fields.size === 0) {
      const res = this.next.update(
        this.emptyObject(),
        liveObj,
        managed,
        beforeFirstApplyManagerName
      );
      liveObj = res.object ?? liveObj;
      managed = res.managed;
    }
    return this.next.apply(liveObj, appliedObj, managed, manager, force);
  }
}
