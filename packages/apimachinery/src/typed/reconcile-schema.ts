// Reconciling a field set with a schema that changed since it was recorded (structured-merge-
// diff typed/reconcile_schema.go): where a list, map or struct became atomic, an owner of any
// part of it becomes owner of the whole (the node itself, nothing below it), so that later
// changes conflict. From atomic to granular nothing can be derived: the owner keeps the node
// and owns none of its inner fields. Deduced (schemaless) maps are left alone.
import type { PathElement } from '../fieldpath/index.js';
import { Set as FieldSet } from '../fieldpath/index.js';
import type { Schema, TypeRef } from './schema.js';
import { isUntypedDeducedMap } from './schema.js';

/** ReconcileFieldSetWithSchema: the reconciled set, or undefined when nothing changed. */
export function reconcileFieldSetWithSchema(
  fieldset: FieldSet,
  schema: Schema,
  typeRef: TypeRef
): FieldSet | undefined {
  const toRemove = new FieldSet();
  const toAdd = new FieldSet();
  const path: PathElement[] = [];

  const visit = (tr: TypeRef, set: FieldSet | undefined, isAtomic: boolean): void => {
    const atom = schema.resolve(tr);
    if (!atom) return;
    // A node that is atomic now but was recorded with inner fields.
    if (atom.list && !atom.map) {
      if (!isAtomic && atom.list.elementRelationship === 'atomic') {
        toRemove.insert(path);
        toAdd.insert(path);
        return;
      }
      if (set) visitItems(set, () => atom.list!.elementType);
      return;
    }
    if (atom.map) {
      if (isUntypedDeducedMap(atom.map)) return;
      if (!isAtomic && atom.map.elementRelationship === 'atomic') {
        if (set && set.size() > 0) {
          toRemove.insert(path);
          toAdd.insert(path);
        }
        return;
      }
      const map = atom.map;
      if (set)
        visitItems(set, (pe) =>
          pe.fieldName !== undefined
            ? (schema.findField(map, pe.fieldName)?.type ?? map.elementType)
            : undefined
        );
    }
  };

  const visitItems = (set: FieldSet, typeOf: (pe: PathElement) => TypeRef | undefined): void => {
    const handle = (pe: PathElement, isMember: boolean): void => {
      const tr = typeOf(pe);
      if (!tr) return; // not in the schema
      const child = set.children.get(pe);
      path.push(pe);
      visit(tr, child, isMember && !child);
      path.pop();
    };
    for (const node of set.children.members)
      if (!set.members.has(node.pathElement)) handle(node.pathElement, false);
    for (const pe of set.members.members) handle(pe, true);
  };

  visit(typeRef, fieldset, false);
  if (toRemove.empty()) return undefined;
  return fieldset.recursiveDifference(toRemove).union(toAdd);
}
