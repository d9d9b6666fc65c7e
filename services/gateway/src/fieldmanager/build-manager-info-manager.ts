// k8s managedfields/internal buildmanagerinfo.go: the manager's identifier from its name, the
// operation (Update or Apply), the kind's API version (updates only) and the subresource.
import type { ApiObject } from '@orch/apimachinery/meta';
import { buildManagerIdentifier } from './managed-fields.js';
import type { Managed } from './managed-fields.js';
import type { Manager, ManagerResult } from './manager.js';

export class BuildManagerInfoManager implements Manager {
  constructor(
    private readonly next: Manager,
    private readonly apiVersion: string,
    private readonly subresource: string
  ) {}

  update(liveObj: ApiObject, newObj: ApiObject, managed: Managed, manager: string): ManagerResult {
    const id = buildManagerIdentifier({
      manager,
      operation: 'Update',
      apiVersion: this.apiVersion,
      subresource: this.subresource,
    });
    return this.next.update(liveObj, newObj, managed, id);
  }

  apply(
    liveObj: ApiObject,
    appliedObj: ApiObject,
    managed: Managed,
    manager: string,
    force: boolean
  ): ManagerResult {
    const id = buildManagerIdentifier({
      manager,
      operation: 'Apply',
      subresource: this.subresource,
    });
    return this.next.apply(liveObj, appliedObj, managed, id, force);
  }
}
