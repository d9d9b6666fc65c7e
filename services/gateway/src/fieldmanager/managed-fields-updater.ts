// k8s managedfields/internal managedfieldsupdater.go: an update is recorded under a temporary
// name, then merged into the manager's entry (same manager, operation, version and
// subresource), whose time is set only when the write took fields; an apply sets its time, and
// an apply that changes nothing answers the live object.
import { newVersionedSet } from '@orch/apimachinery/fieldpath';
import type { ApiObject } from '@orch/apimachinery/meta';
import { now } from '@orch/apimachinery/meta';
import { removeObjectManagedFields } from './managed-fields.js';
import type { Managed } from './managed-fields.js';
import type { Manager, ManagerResult } from './manager.js';

const self = 'current-operation';

export class ManagedFieldsUpdater implements Manager {
  constructor(private readonly next: Manager) {}

  update(liveObj: ApiObject, newObj: ApiObject, managed: Managed, manager: string): ManagerResult {
    const res = this.next.update(liveObj, newObj, managed, self);
    const fields = res.managed.fields;
    const vs = fields.get(self);
    if (vs) {
      fields.delete(self);
      const previous = fields.get(manager);
      fields.set(
        manager,
        previous ? newVersionedSet(vs.set.union(previous.set), vs.apiVersion, vs.applied) : vs
      );
      res.managed.times.set(manager, now());
    }
    return res;
  }

  apply(
    liveObj: ApiObject,
    appliedObj: ApiObject,
    managed: Managed,
    manager: string,
    force: boolean
  ): ManagerResult {
    const res = this.next.apply(liveObj, appliedObj, managed, manager, force);
    if (res.object) {
      res.managed.times.set(manager, now());
      return res;
    }
    const object = structuredClone(liveObj);
    removeObjectManagedFields(object);
    return { object, managed: res.managed };
  }
}
