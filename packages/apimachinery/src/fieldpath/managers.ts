// Managers and their field sets (structured-merge-diff fieldpath/managers.go): a
// VersionedSet is what one manager owns, in the API version it was recorded in, and whether it
// came from an apply; ManagedFields maps manager names to their sets.
import type { Set } from './set.js';

/** The API version a set is expressed in ("apps/v1"). */
export type APIVersion = string;

export interface VersionedSet {
  readonly set: Set;
  readonly apiVersion: APIVersion;
  readonly applied: boolean;
}

/** NewVersionedSet. */
export function newVersionedSet(set: Set, apiVersion: APIVersion, applied: boolean): VersionedSet {
  return { set, apiVersion, applied };
}

/** Manager name → its versioned set. */
export type ManagedFields = Map<string, VersionedSet>;

/** ManagedFields.Copy (the sets are shared; sets are not changed in place by the library). */
export function copyManagedFields(m: ManagedFields): ManagedFields {
  return new Map(m);
}

/** ManagedFields.Equals. */
export function managedFieldsEquals(a: ManagedFields, b: ManagedFields): boolean {
  if (a.size !== b.size) return false;
  for (const [manager, left] of a) {
    const right = b.get(manager);
    if (!right) return false;
    if (left.apiVersion !== right.apiVersion || left.applied !== right.applied) return false;
    if (!left.set.equals(right.set)) return false;
  }
  return true;
}

/**
 * ManagedFields.Difference: per manager, what differs between a and b (a manager only on one
 * side is taken whole; a manager on both sides at another version is taken from b).
 */
export function managedFieldsDifference(a: ManagedFields, b: ManagedFields): ManagedFields {
  const diff: ManagedFields = new Map();
  for (const [manager, left] of a) {
    const right = b.get(manager);
    if (!right) {
      diff.set(manager, left);
      continue;
    }
    if (left.apiVersion !== right.apiVersion) {
      diff.set(manager, right);
      continue;
    }
    const d = left.set.difference(right.set).union(right.set.difference(left.set));
    if (!d.empty()) diff.set(manager, newVersionedSet(d, right.apiVersion, false));
  }
  for (const [manager, right] of b) if (!a.has(manager)) diff.set(manager, right);
  return diff;
}

/** ManagedFields.String. */
export function managedFieldsString(m: ManagedFields): string {
  const out: string[] = [];
  for (const manager of [...m.keys()].sort()) {
    const vs = m.get(manager) as VersionedSet;
    out.push(
      `${manager}:\n- Applied: ${String(vs.applied)}\n- APIVersion: ${vs.apiVersion}\n- Set: ${vs.set.toString()}`
    );
  }
  return out.join('\n');
}
