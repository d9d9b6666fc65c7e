// k8s managedfields/internal capmanagers.go: at most maxUpdateManagers Update entries; past
// that the oldest are merged, per API version, into one `ancient-changes` entry.
import { newVersionedSet } from '@orch/apimachinery/fieldpath';
import type { ApiObject } from '@orch/apimachinery/meta';
import { buildManagerIdentifier } from './managed-fields.js';
import type { Managed } from './managed-fields.js';
import type { Manager, ManagerResult } from './manager.js';

/** k8s DefaultMaxUpdateManagers. */
export const defaultMaxUpdateManagers = 10;
/** The manager name of the merged old updates. */
export const oldUpdatesManagerName = 'ancient-changes';

const seconds = (t: string | undefined): number => (t ? Math.floor(Date.parse(t) / 1000) : 0);

export function capUpdateManagers(managed: Managed, max: number): Managed {
  const fields = managed.fields;
  const updaters = [...fields].filter(([, vs]) => !vs.applied).map(([m]) => m);
  if (updaters.length <= max) return managed;
  updaters.sort(
    (a, b) =>
      seconds(managed.times.get(a)) - seconds(managed.times.get(b)) || (a < b ? -1 : a > b ? 1 : 0)
  );
  const versionToFirstManager = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const manager = updaters[i] as string;
    const vs = fields.get(manager);
    if (!vs) continue;
    const time = managed.times.get(manager);
    const version = vs.apiVersion;
    const bucket = buildManagerIdentifier({
      manager: oldUpdatesManagerName,
      operation: 'Update',
      apiVersion: version,
    });
    const first = versionToFirstManager.get(version);
    if (first === undefined) {
      versionToFirstManager.set(version, manager);
      continue;
    }
    if (!fields.has(bucket)) {
      const s = fields.get(first);
      fields.delete(first);
      if (s) fields.set(bucket, s);
    }
    const bucketSet = fields.get(bucket);
    fields.set(
      bucket,
      newVersionedSet(bucketSet ? vs.set.union(bucketSet.set) : vs.set, vs.apiVersion, vs.applied)
    );
    fields.delete(manager);
    length--;
    managed.times.set(bucket, time);
  }
  return managed;
}

export class CapManagersManager implements Manager {
  constructor(
    private readonly next: Manager,
    private readonly max = defaultMaxUpdateManagers
  ) {}

  update(liveObj: ApiObject, newObj: ApiObject, managed: Managed, manager: string): ManagerResult {
    const res = this.next.update(liveObj, newObj, managed, manager);
    return { object: res.object, managed: capUpdateManagers(res.managed, this.max) };
  }

  apply(
    liveObj: ApiObject,
    appliedObj: ApiObject,
    managed: Managed,
    manager: string,
    force: boolean
  ): ManagerResult {
    return this.next.apply(liveObj, appliedObj, managed, manager, force);
  }
}
