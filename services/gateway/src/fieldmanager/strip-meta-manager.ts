// k8s managedfields/internal stripmeta.go: a manager never owns apiVersion, kind, metadata itself
// or the metadata the server sets (name, namespace, uid, resourceVersion, ...).
import { Set as FieldSet, makePath, newVersionedSet } from '@orch/apimachinery/fieldpath';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Managed } from './managed-fields.js';
import type { Manager, ManagerResult } from './manager.js';

const stripSet = FieldSet.of(
  makePath('apiVersion'),
  makePath('kind'),
  makePath('metadata'),
  ...[
    'name',
    'namespace',
    'creationTimestamp',
    'selfLink',
    'uid',
    'clusterName',
    'generation',
    'managedFields',
    'resourceVersion',
  ].map((f) => makePath('metadata', f))
);

function stripFields(managed: Managed, manager: string): Managed {
  const vs = managed.fields.get(manager);
  if (vs) {
    const set = vs.set.difference(stripSet);
    if (set.empty()) managed.fields.delete(manager);
    else managed.fields.set(manager, newVersionedSet(set, vs.apiVersion, vs.applied));
  }
  return managed;
}

export class StripMetaManager implements Manager {
  constructor(private readonly next: Manager) {}

  update(liveObj: ApiObject, newObj: ApiObject, managed: Managed, manager: string): ManagerResult {
    const res = this.next.update(liveObj, newObj, managed, manager);
    return { object: res.object, managed: stripFields(res.managed, manager) };
  }

  apply(
    liveObj: ApiObject,
    appliedObj: ApiObject,
    managed: Managed,
    manager: string,
    force: boolean
  ): ManagerResult {
    const res = this.next.apply(liveObj, appliedObj, managed, manager, force);
    return { object: res.object, managed: stripFields(res.managed, manager) };
  }
}
