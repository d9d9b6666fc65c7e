// k8s managedfields/internal versioncheck.go: an applied object names the path's kind and
// version, or the apply is 400.
import { newBadRequest } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Managed } from './managed-fields.js';
import type { Manager, ManagerResult } from './manager.js';

export class VersionCheckManager implements Manager {
  constructor(
    private readonly next: Manager,
    private readonly apiVersion: string,
    private readonly kind: string
  ) {}

  update(liveObj: ApiObject, newObj: ApiObject, managed: Managed, manager: string): ManagerResult {
    return this.next.update(liveObj, newObj, managed, manager);
  }

  apply(
    liveObj: ApiObject,
    appliedObj: ApiObject,
    managed: Managed,
    manager: string,
    force: boolean
  ): ManagerResult {
    if (appliedObj.apiVersion !== this.apiVersion || appliedObj.kind !== this.kind) {
      const gv = typeof appliedObj.apiVersion === 'string' ? appliedObj.apiVersion : '';
      const k = typeof appliedObj.kind === 'string' ? appliedObj.kind : '';
      const group = gv.includes('/') ? gv : `/${gv}`;
      throw newBadRequest(
        `invalid object type: ${group}, Kind=${k} (expected apiVersion ${this.apiVersion}, kind ${this.kind})`
      );
    }
    return this.next.apply(liveObj, appliedObj, managed, manager, force);
  }
}
