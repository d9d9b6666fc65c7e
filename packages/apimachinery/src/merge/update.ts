// Updating managed fields on a write (structured-merge-diff merge/update.go): Update records
// what a non-apply write changed, taking ownership without conflicts; Apply merges an applied
// configuration into the live object, fails with the conflicting fields unless forced (force
// moves their ownership), and removes what the applier stopped applying unless another manager
// owns it. Managers left owning nothing are dropped. Objects are converted to each manager's
// API version through the Converter; the identity converter serves a single version.
import type { APIVersion, Filter, ManagedFields, VersionedSet } from '../fieldpath/index.js';
import { Set as FieldSet, newVersionedSet, valueEquals } from '../fieldpath/index.js';
import type { Comparison, TypedValue } from '../typed/index.js';
import { ensureNamedFieldsAreMembers, reconcileWithSchema } from '../typed/index.js';
import { ConflictsError, conflictsFromManagers } from './conflict.js';

/** Converts objects between API versions (merge.Converter). */
export interface Converter {
  convert(object: TypedValue, version: APIVersion): TypedValue;
  /** Whether an error means the version no longer exists (its managers are dropped). */
  isMissingVersionError(err: unknown): boolean;
}

/** A converter for a kind served in one version: every object is already in it. */
export const identityConverter: Converter = {
  convert: (object) => object,
  isMissingVersionError: () => false,
};

export interface UpdaterOptions {
  converter?: Converter;
  /** Per API version, fields removed from what a manager is recorded to own. */
  ignoreFilter?: Map<APIVersion, Filter>;
  /** Return the merged object even when apply changes nothing (upstream returns nil then). */
  returnInputOnNoop?: boolean;
}

/** The result of Update and Apply. newObject is undefined when apply changed nothing. */
export interface UpdateResult {
  newObject: TypedValue | undefined;
  managers: ManagedFields;
}

export class Updater {
  private readonly converter: Converter;
  private readonly ignoreFilter: Map<APIVersion, Filter>;
  private readonly returnInputOnNoop: boolean;

  constructor(opts: UpdaterOptions = {}) {
    this.converter = opts.converter ?? identityConverter;
    this.ignoreFilter = opts.ignoreFilter ?? new Map();
    this.returnInputOnNoop = opts.returnInputOnNoop ?? false;
  }

  private convert(object: TypedValue, version: APIVersion): TypedValue | undefined {
    try {
      return this.converter.convert(object, version);
    } catch (err) {
      if (this.converter.isMissingVersionError(err)) return undefined;
      throw err;
    }
  }

  /** The shared part of Update and Apply (upstream's update): conflicts, forced and removed fields. */
  private updateManagers(
    oldObject: TypedValue,
    newObject: TypedValue,
    version: APIVersion,
    managers: ManagedFields,
    workflow: string,
    force: boolean
  ): { managers: ManagedFields; compare: Comparison } {
    const conflicts: ManagedFields = new Map();
    const removed: ManagedFields = new Map();
    const compare = oldObject.compare(newObject).filterFields(this.ignoreFilter.get(version));
    const versions = new Map<APIVersion, Comparison>([[version, compare]]);
    for (const [manager, managerSet] of [...managers]) {
      if (manager === workflow) continue;
      let cmp = versions.get(managerSet.apiVersion);
      if (!cmp) {
        const vOld = this.convert(oldObject, managerSet.apiVersion);
        const vNew = vOld && this.convert(newObject, managerSet.apiVersion);
        if (!vOld || !vNew) {
          managers.delete(manager);
          continue;
        }
        cmp = vOld.compare(vNew).filterFields(this.ignoreFilter.get(managerSet.apiVersion));
        versions.set(managerSet.apiVersion, cmp);
      }
      const conflictSet = managerSet.set.intersection(cmp.modified.union(cmp.added));
      if (!conflictSet.empty())
        conflicts.set(manager, newVersionedSet(conflictSet, managerSet.apiVersion, false));
      if (!cmp.removed.empty())
        removed.set(manager, newVersionedSet(cmp.removed, managerSet.apiVersion, false));
    }
    if (!force && conflicts.size > 0) throw new ConflictsError(conflictsFromManagers(conflicts));
    for (const [manager, conflictSet] of conflicts) {
      const vs = managers.get(manager) as VersionedSet;
      managers.set(
        manager,
        newVersionedSet(vs.set.difference(conflictSet.set), vs.apiVersion, vs.applied)
      );
    }
    for (const [manager, removedSet] of removed) {
      const vs = managers.get(manager);
      if (!vs) continue;
      managers.set(
        manager,
        newVersionedSet(vs.set.difference(removedSet.set), vs.apiVersion, vs.applied)
      );
    }
    for (const [manager, vs] of [...managers]) if (vs.set.empty()) managers.delete(manager);
    return { managers, compare };
  }

  /**
   * Update: the manager of a create, update or patch takes ownership of every field it changed
   * (without conflicts; other managers lose the fields it changed). liveObject is the stored
   * object (an empty one for a create), newObject the one about to be stored.
   */
  update(
    liveObject: TypedValue,
    newObject: TypedValue,
    version: APIVersion,
    managersIn: ManagedFields,
    manager: string
  ): UpdateResult {
    let managers = this.reconcileManagedFieldsWithSchemaChanges(liveObject, managersIn);
    const res = this.updateManagers(liveObject, newObject, version, managers, manager, true);
    managers = res.managers;
    const compare = res.compare;
    const own = managers.get(manager) ?? newVersionedSet(new FieldSet(), version, false);
    let set = own.set.difference(compare.removed).union(compare.modified).union(compare.added);
    const filter = this.ignoreFilter.get(version);
    if (filter) set = filter(set);
    if (set.empty()) managers.delete(manager);
    else managers.set(manager, newVersionedSet(set, version, false));
    return { newObject, managers };
  }

  /**
   * Apply: merges configObject into liveObject for manager, which now owns exactly the fields
   * configObject sets. Fields it owned before and no longer applies are removed unless another
   * manager owns them. Throws ConflictsError unless force.
   */
  apply(
    liveObject: TypedValue,
    configObject: TypedValue,
    version: APIVersion,
    managersIn: ManagedFields,
    manager: string,
    force: boolean
  ): UpdateResult {
    const managers = this.reconcileManagedFieldsWithSchemaChanges(liveObject, managersIn);
    let newObject = liveObject.merge(configObject);
    const lastSet = managers.get(manager);
    let set = configObject.toFieldSet();
    const filter = this.ignoreFilter.get(version);
    if (filter) set = filter(set);
    managers.set(manager, newVersionedSet(set, version, true));
    newObject = this.prune(newObject, managers, manager, lastSet);
    const res = this.updateManagers(liveObject, newObject, version, managers, manager, force);
    if (!this.returnInputOnNoop && valueEquals(liveObject.value, newObject.value))
      return { newObject: undefined, managers: res.managers };
    return { newObject, managers: res.managers };
  }

  /**
   * prune removes a field, list or map item iff the applying manager owned it, no other
   * manager owns it, and it is not in the new configuration.
   */
  private prune(
    merged: TypedValue,
    managers: ManagedFields,
    applyingManager: string,
    lastSet: VersionedSet | undefined
  ): TypedValue {
    if (!lastSet || lastSet.set.empty()) return merged;
    const version = lastSet.apiVersion;
    const convertedMerged = this.convert(merged, version);
    if (!convertedMerged) return merged;
    const { schema, typeRef } = convertedMerged;
    let pruned = convertedMerged.removeItems(
      ensureNamedFieldsAreMembers(lastSet.set, schema, typeRef)
    );
    pruned = this.addBackOwnedItems(convertedMerged, pruned, version, managers, applyingManager);
    pruned = this.addBackDanglingItems(convertedMerged, pruned, lastSet);
    const back = this.convert(pruned, (managers.get(applyingManager) as VersionedSet).apiVersion);
    if (!back) throw new Error('failed to convert the pruned object back to the applied version');
    return back;
  }

  /** Adds back what prune removed but other managers (or the new configuration) own. */
  private addBackOwnedItems(
    merged: TypedValue,
    pruned: TypedValue,
    prunedVersion: APIVersion,
    managedFields: ManagedFields,
    _applyingManager: string
  ): TypedValue {
    const managedAtVersion = new Map<APIVersion, FieldSet>();
    for (const vs of managedFields.values()) {
      const cur = managedAtVersion.get(vs.apiVersion);
      managedAtVersion.set(vs.apiVersion, cur ? cur.union(vs.set) : vs.set);
    }
    // The pruned version first, so that conversion does not fail on what was pruned.
    const versions = [...managedAtVersion.keys()].sort((a, b) =>
      a === prunedVersion ? -1 : b === prunedVersion ? 1 : 0
    );
    for (const version of versions) {
      const managed = managedAtVersion.get(version) as FieldSet;
      const m = this.convert(merged, version);
      const p = m && this.convert(pruned, version);
      if (!m || !p) continue;
      merged = m;
      const { schema, typeRef } = merged;
      const mergedSet = ensureNamedFieldsAreMembers(merged.toFieldSet(), schema, typeRef);
      const prunedSet = ensureNamedFieldsAreMembers(p.toFieldSet(), schema, typeRef);
      const managedSet = ensureNamedFieldsAreMembers(managed, schema, typeRef);
      pruned = merged.removeItems(mergedSet.difference(prunedSet.union(managedSet)));
    }
    return pruned;
  }

  /**
   * Adds back what prune removed that the applier did not own before (unowned fields, or
   * fields only updaters own).
   */
  private addBackDanglingItems(
    merged: TypedValue,
    pruned: TypedValue,
    lastSet: VersionedSet
  ): TypedValue {
    const convertedPruned = this.convert(pruned, lastSet.apiVersion);
    if (!convertedPruned) return merged;
    const { schema, typeRef } = merged;
    const prunedSet = ensureNamedFieldsAreMembers(convertedPruned.toFieldSet(), schema, typeRef);
    const mergedSet = ensureNamedFieldsAreMembers(merged.toFieldSet(), schema, typeRef);
    const last = ensureNamedFieldsAreMembers(lastSet.set, schema, typeRef);
    return merged.removeItems(mergedSet.difference(prunedSet).intersection(last));
  }

  /** Brings every manager's set in line with the current schema (topology changes). */
  private reconcileManagedFieldsWithSchemaChanges(
    liveObject: TypedValue,
    managers: ManagedFields
  ): ManagedFields {
    const result: ManagedFields = new Map();
    for (const [manager, vs] of managers) {
      const tv = this.convert(liveObject, vs.apiVersion);
      if (!tv) continue;
      const reconciled = reconcileWithSchema(vs.set, tv);
      result.set(manager, reconciled ? newVersionedSet(reconciled, vs.apiVersion, vs.applied) : vs);
    }
    return result;
  }
}
