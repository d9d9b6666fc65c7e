// The innermost link (k8s managedfields/internal structuredmerge.go): objects as typed values
// of the kind's schema (the deduced type for kinds without one), ownership from
// structured-merge-diff's Updater; the fields a strategy resets (status on the main resource,
// all but status on /status) are never owned.
import { newBadRequest } from '@orch/apimachinery/errors';
import type { Filter, JsonValue } from '@orch/apimachinery/fieldpath';
import { Updater } from '@orch/apimachinery/merge';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { ParseableType } from '@orch/apimachinery/typed';
import { TypedValue, ValidationErrors } from '@orch/apimachinery/typed';
import { Managed } from './managed-fields.js';
import type { Manager, ManagerResult } from './manager.js';

/** The object without metadata.managedFields, as a typed value (not validated: stored data). */
function typedLive(type: ParseableType, obj: ApiObject): TypedValue {
  const { managedFields: _, ...metadata } = obj.metadata ?? {};
  // An API object is decoded JSON: a JsonValue, though ApiObject types its values unknown.
  return new TypedValue({ ...obj, metadata } as JsonValue, type.typeRef, type.schema);
}

export class StructuredMergeManager implements Manager {
  readonly #type: ParseableType;
  readonly #apiVersion: string;
  readonly #kind: string;
  readonly #updater: Updater;

  /** resetFields: what no manager may own through this endpoint (strategy reset fields). */
  constructor(type: ParseableType, apiVersion: string, kind: string, resetFields?: Filter) {
    this.#type = type;
    this.#apiVersion = apiVersion;
    this.#kind = kind;
    this.#updater = new Updater(
      resetFields ? { ignoreFilter: new Map([[apiVersion, resetFields]]) } : {}
    );
  }

  update(liveObj: ApiObject, newObj: ApiObject, managed: Managed, manager: string): ManagerResult {
    const live = typedLive(this.#type, liveObj);
    const next = typedLive(this.#type, newObj);
    const res = this.#updater.update(live, next, this.#apiVersion, managed.fields, manager);
    return { object: newObj, managed: new Managed(res.managers, managed.times) };
  }

  apply(
    liveObj: ApiObject,
    patchObj: ApiObject,
    managed: Managed,
    manager: string,
    force: boolean
  ): ManagerResult {
    if (patchObj.apiVersion !== this.#apiVersion) {
      throw newBadRequest(
        `Incorrect version specified in apply patch. Specified patch version: ${String(patchObj.apiVersion)}, expected: ${this.#apiVersion}`
      );
    }
    const meta = patchObj.metadata as Record<string, unknown> | undefined;
    const mf = meta?.['managedFields'];
    if (mf !== undefined && mf !== null && !(Array.isArray(mf) && mf.length === 0)) {
      throw newBadRequest('metadata.managedFields must be nil');
    }
    let patch: TypedValue;
    try {
      patch = this.#type.fromUnstructured(patchObj as JsonValue);
    } catch (err) {
      if (!(err instanceof ValidationErrors)) throw err;
      const gvk = `${this.#apiVersion}, Kind=${this.#kind}`;
      throw newBadRequest(`failed to create typed patch object (${gvk}): ${err.message}`);
    }
    const live = typedLive(this.#type, liveObj);
    const res = this.#updater.apply(live, patch, this.#apiVersion, managed.fields, manager, force);
    const out = new Managed(res.managers, managed.times);
    if (!res.newObject) return { object: undefined, managed: out };
    // The merge of two objects with their metadata is one.
    return { object: res.newObject.value as ApiObject, managed: out };
  }
}
