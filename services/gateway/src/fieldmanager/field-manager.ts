// The field manager of one kind and endpoint (k8s managedfields/internal fieldmanager.go and
// NewDefaultFieldManager): the chain versionCheck → lastAppliedUpdater → lastAppliedManager →
// skipNonApplied → capManagers → buildManagerInfo → managedFieldsUpdater → stripMeta →
// structuredMerge, with managedFields decoded from and encoded into the objects around it.
// update never fails a write (upstream's UpdateNoErrors: on an error the object goes without
// managedFields); apply answers conflicts as 409. A custom resource's type comes from its CRD
// version's schema (upstream's TypeConverter of the CR), every other kind's from the schema model.
import { newUnprocessableEntity } from '@orch/apimachinery/errors';
import type { Filter } from '@orch/apimachinery/fieldpath';
import { Set as FieldSet, makePath, newExcludeSetFilter } from '@orch/apimachinery/fieldpath';
import { ConflictsError } from '@orch/apimachinery/merge';
import type { ApiObject } from '@orch/apimachinery/meta';
import { formatApiVersion } from '@orch/apimachinery/schema';
import { builtinSchemaModel } from '@orch/apimachinery/schema-model';
import type { CustomResourceDefinitionVersion } from '@orch/apimachinery/apiextensions';
import {
  ParseableType,
  ValidationErrors,
  deducedParseableType,
  parseableTypeFor,
  typedSchemaForCustomResource,
} from '@orch/apimachinery/typed';
import { BuildManagerInfoManager } from './build-manager-info-manager.js';
import { CapManagersManager } from './cap-managers-manager.js';
import { newApplyConflictError } from './conflict-error.js';
import { LastAppliedManager, LastAppliedUpdater } from './last-applied.js';
import { ManagedFieldsUpdater } from './managed-fields-updater.js';
import {
  Managed,
  decodeManagedFields,
  isResetManagedFields,
  removeObjectManagedFields,
  setObjectManagedFields,
} from './managed-fields.js';
import type { Manager } from './manager.js';
import { SkipNonAppliedManager } from './skip-non-applied-manager.js';
import { StripMetaManager } from './strip-meta-manager.js';
import { StructuredMergeManager } from './structured-merge-manager.js';
import { VersionCheckManager } from './version-check-manager.js';

export interface FieldManagerKind {
  group: string;
  version: string;
  kind: string;
}

/** Only status: what a write through /status may own. */
const onlyStatus: Filter = (s) => {
  const others = new FieldSet();
  for (const pe of s.members.members) if (pe.fieldName !== 'status') others.insert([pe]);
  for (const n of s.children.members)
    if (n.pathElement.fieldName !== 'status') others.insert([n.pathElement]);
  return s.recursiveDifference(others);
};

/**
 * The fields a strategy resets (k8s ResetFieldsStrategy), never owned through the endpoint: the
 * main resource of a kind with a status subresource keeps status, /status keeps all but status.
 */
export function resetFieldsFor(subresource: string, hasStatus: boolean): Filter | undefined {
  if (subresource === 'status') return onlyStatus;
  if (subresource === '' && hasStatus) return newExcludeSetFilter(FieldSet.of(makePath('status')));
  return undefined;
}

/** What the field manager reads of a custom resource: its CRD version. */
export interface FieldManagerCustomResource {
  readonly version: CustomResourceDefinitionVersion;
}

/** The merge type of a kind: the CRD version's schema for a custom resource (deduced without one). */
function parseableTypeOf(kind: FieldManagerKind, cr?: FieldManagerCustomResource): ParseableType {
  if (!cr) return parseableTypeFor(builtinSchemaModel(), kind);
  const schema = cr.version.schema?.openAPIV3Schema;
  if (!schema) return deducedParseableType();
  const { schema: s, typeRef } = typedSchemaForCustomResource(schema);
  return new ParseableType(s, typeRef);
}

export class FieldManager {
  readonly #manager: Manager;
  readonly #subresource: string;
  readonly #empty: () => ApiObject;

  constructor(
    kind: FieldManagerKind,
    subresource: string,
    resetFields?: Filter,
    customResource?: FieldManagerCustomResource
  ) {
    const apiVersion = formatApiVersion(kind);
    const type = parseableTypeOf(kind, customResource);
    this.#subresource = subresource;
    this.#empty = () => ({ apiVersion, kind: kind.kind, metadata: {} }) as ApiObject;
    const inner = new StructuredMergeManager(type, apiVersion, kind.kind, resetFields);
    const info = new BuildManagerInfoManager(
      new ManagedFieldsUpdater(new StripMetaManager(inner)),
      apiVersion,
      subresource
    );
    const skip = new SkipNonAppliedManager(new CapManagersManager(info), this.#empty);
    this.#manager = new VersionCheckManager(
      new LastAppliedUpdater(new LastAppliedManager(skip, type)),
      apiVersion,
      kind.kind
    );
  }

  /** An empty object of the kind: the live object of a create. */
  emptyObject(): ApiObject {
    return this.#empty();
  }

  /**
   * A non-apply write (k8s FieldManager.Update / UpdateNoErrors): managedFields the client sent
   * are taken as they are (not on a subresource); none, or ones that cannot be read, keep the
   * live object's; `[{}]` resets them first, and the write's manager then owns what it changed.
   */
  update(liveObj: ApiObject | undefined, newObj: ApiObject, manager: string): ApiObject {
    const live = liveObj ?? this.#empty();
    try {
      const sent = newObj.metadata.managedFields;
      const reset = isResetManagedFields(sent);
      let managed: Managed;
      if (reset) managed = new Managed();
      else {
        let fromNew: Managed | undefined;
        try {
          fromNew = decodeManagedFields(sent);
        } catch {
          fromNew = undefined;
        }
        managed =
          fromNew && fromNew.fields.size > 0 && this.#subresource === ''
            ? fromNew
            : decodeManagedFields(live.metadata?.managedFields);
      }
      // Kept in place (not deleted) so that the key keeps its position; the merge reads
      // objects without it.
      if (newObj.metadata.managedFields !== undefined) newObj.metadata.managedFields = [];
      // A reset is tracked even on an object without managedFields (spec rule 10).
      const res = reset
        ? this.#resetUpdate(live, newObj, manager)
        : this.#manager.update(live, newObj, managed, manager);
      const out = res.object ?? newObj;
      setObjectManagedFields(out, res.managed);
      return out;
    } catch {
      removeObjectManagedFields(newObj);
      return newObj;
    }
  }

  #resetUpdate(live: ApiObject, newObj: ApiObject, manager: string): ReturnType<Manager['update']> {
    // Past the skip of untracked objects: an object without uid is a create, always tracked.
    const { uid: _, ...meta } = live.metadata ?? {};
    const untracked = { ...live, metadata: meta } as ApiObject;
    return this.#manager.update(untracked, newObj, new Managed(), manager);
  }

  /**
   * An apply (k8s FieldManager.Apply): the live object's managedFields, the applied object
   * merged for manager; conflicts are a 409 StatusError unless force.
   */
  apply(
    liveObj: ApiObject | undefined,
    appliedObj: ApiObject,
    manager: string,
    force: boolean
  ): ApiObject {
    const live = liveObj ?? this.#empty();
    let managed: Managed;
    try {
      managed = decodeManagedFields(live.metadata?.managedFields);
    } catch (err) {
      throw new Error(`failed to decode managed fields: ${(err as Error).message}`);
    }
    try {
      const res = this.#manager.apply(live, appliedObj, managed, manager, force);
      const out = res.object ?? structuredClone(live);
      setObjectManagedFields(out, res.managed);
      return out;
    } catch (err) {
      if (err instanceof ConflictsError) throw newApplyConflictError(err.conflicts);
      // The applied object was typed and found valid: what fails here is the stored object (an
      // associative list item without its key, which validation let through). Upstream answers
      // 500 ("failed to create typed live object"); the apply cannot be processed against this
      // object, which is 422, and the object stays as it is.
      if (err instanceof ValidationErrors)
        throw newUnprocessableEntity(`the stored object cannot take an apply: ${err.message}`);
      throw err;
    }
  }
}

const cache = new Map<string, FieldManager>();
// Custom resources' by CRD version object: a CRD update brings a new one, and the old goes.
const customResourceCaches = new WeakMap<
  CustomResourceDefinitionVersion,
  Map<string, FieldManager>
>();

/**
 * The field manager of a kind at an endpoint (built once; they hold no request state); of a
 * custom resource, once per CRD version object.
 */
export function fieldManagerFor(
  kind: FieldManagerKind,
  subresource: string,
  hasStatus: boolean,
  customResource?: FieldManagerCustomResource
): FieldManager {
  let managers = cache;
  if (customResource) {
    let crManagers = customResourceCaches.get(customResource.version);
    if (!crManagers) {
      crManagers = new Map();
      customResourceCaches.set(customResource.version, crManagers);
    }
    managers = crManagers;
  }
  const key = `${kind.group}/${kind.version}/${kind.kind}/${subresource}/${String(hasStatus)}`;
  let fm = managers.get(key);
  if (!fm) {
    fm = new FieldManager(
      kind,
      subresource,
      resetFieldsFor(subresource, hasStatus),
      customResource
    );
    managers.set(key, fm);
  }
  return fm;
}
