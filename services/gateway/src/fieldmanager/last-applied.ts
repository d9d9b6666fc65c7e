// Client-side apply migration (k8s managedfields/internal lastappliedmanager.go and
// lastappliedupdater.go), for the manager `kubectl` only (another name opts out):
// lastAppliedManager lets `kubectl apply --server-side` take fields that `kubectl apply`
// (client-side) set and that still hold their last-applied values without conflicts;
// lastAppliedUpdater keeps the last-applied annotation of an object that has one in step with
// what is applied, so that going back to client-side apply works.
import type { JsonValue } from '@orch/apimachinery/fieldpath';
import type { Set as FieldSet } from '@orch/apimachinery/fieldpath';
import { ConflictsError } from '@orch/apimachinery/merge';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { ParseableType } from '@orch/apimachinery/typed';
import { TypedValue } from '@orch/apimachinery/typed';
import type { Managed } from './managed-fields.js';
import type { Manager, ManagerResult } from './manager.js';

/** The annotation kubectl's client-side apply writes (k8s corev1.LastAppliedConfigAnnotation). */
export const lastAppliedConfigAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';
/** The only manager whose applies migrate client-side apply. */
const kubectlManager = 'kubectl';
/** k8s totalAnnotationSizeLimitB: a larger last-applied annotation is dropped. */
const totalAnnotationSizeLimitB = 256 * 1024;

function lastAppliedOf(obj: ApiObject): string | undefined {
  const v = obj.metadata?.annotations?.[lastAppliedConfigAnnotation];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export class LastAppliedManager implements Manager {
  constructor(
    private readonly next: Manager,
    private readonly type: ParseableType
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
    try {
      return this.next.apply(liveObj, appliedObj, managed.copy(), manager, force);
    } catch (err) {
      if (manager !== kubectlManager || !(err instanceof ConflictsError)) throw err;
      const allowed = this.allowedConflictsFromLastApplied(liveObj);
      if (!allowed) throw err;
      const left = err.conflicts.filter((c) => !allowed.has(c.path));
      if (left.length > 0) throw new ConflictsError(left);
      return this.next.apply(liveObj, appliedObj, managed, manager, true);
    }
  }

  /** The fields of the last-applied configuration whose live value is still the applied one. */
  private allowedConflictsFromLastApplied(liveObj: ApiObject): FieldSet | undefined {
    const text = lastAppliedOf(liveObj);
    if (!text) return undefined;
    try {
      const parsed = JSON.parse(text) as JsonValue;
      const last = new TypedValue(parsed, this.type.typeRef, this.type.schema);
      const { managedFields: _, ...metadata } = liveObj.metadata;
      const live = new TypedValue(
        { ...liveObj, metadata } as JsonValue,
        this.type.typeRef,
        this.type.schema
      );
      const cmp = last.compare(live);
      return last.toFieldSet().difference(cmp.modified).difference(cmp.removed);
    } catch {
      return undefined;
    }
  }
}

export class LastAppliedUpdater implements Manager {
  constructor(private readonly next: Manager) {}

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
    const res = this.next.apply(liveObj, appliedObj, managed, manager, force);
    const obj = res.object;
    if (manager !== kubectlManager || !obj || !lastAppliedOf(obj)) return res;
    const applied = structuredClone(appliedObj);
    const annotations = applied.metadata?.annotations;
    if (annotations) {
      delete annotations[lastAppliedConfigAnnotation];
      if (Object.keys(annotations).length === 0) delete applied.metadata.annotations;
    }
    const value = JSON.stringify(applied);
    const objAnnotations = (obj.metadata.annotations ??= {});
    if (value.length > totalAnnotationSizeLimitB)
      delete objAnnotations[lastAppliedConfigAnnotation];
    else objAnnotations[lastAppliedConfigAnnotation] = value;
    return res;
  }
}
