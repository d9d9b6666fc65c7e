// The fields a value sets (structured-merge-diff typed/tofieldset.go): every scalar and every
// atomic list or map is a member; every list item and every map entry that is not a struct
// field is a member, with its contents below it; a struct field is a member only when null, an
// empty map, or not in the schema. Atomic types are not descended into; associative list
// items whose key is duplicated are members as a whole, nothing below them.
import type { JsonValue, PathElement } from '../fieldpath/index.js';
import { Set as FieldSet, isMap, serializePathElement } from '../fieldpath/index.js';
import { atomKind, listItemToPathElement } from './helpers.js';
import type { Schema, TypeRef } from './schema.js';

export function toFieldSet(schema: Schema, typeRef: TypeRef, value: JsonValue): FieldSet {
  const set = new FieldSet();
  const path: PathElement[] = [];
  const walk = (tr: TypeRef, v: JsonValue): void => {
    const atom = schema.resolve(tr);
    if (!atom) return;
    const kind = atomKind(atom, v);
    if (kind === 'scalar') {
      set.insert(path);
      return;
    }
    if (kind === 'list') {
      const list = atom.list!;
      if (list.elementRelationship === 'atomic') {
        set.insert(path);
        return;
      }
      if (!Array.isArray(v)) return;
      // Items whose key is duplicated are owned as a whole: the item, nothing below it.
      const pes = v.map((item) => listItemToPathElement(schema, list, item));
      const ids = pes.map(serializePathElement);
      const seen = new Set<string>();
      const duplicates = new Set<string>();
      pes.forEach((pe, i) => {
        const id = ids[i] as string;
        if (!seen.has(id)) seen.add(id);
        else if (!duplicates.has(id)) {
          duplicates.add(id);
          path.push(pe);
          set.insert(path);
          path.pop();
        }
      });
      v.forEach((item, i) => {
        if (duplicates.has(ids[i] as string)) return;
        path.push(pes[i] as PathElement);
        walk(list.elementType, item);
        set.insert(path);
        path.pop();
      });
      return;
    }
    if (kind === 'map') {
      const map = atom.map!;
      if (map.elementRelationship === 'atomic') {
        set.insert(path);
        return;
      }
      if (!isMap(v)) return;
      for (const key of Object.keys(v)) {
        const val = v[key] as JsonValue;
        const field = schema.findField(map, key);
        const ft = field?.type ?? map.elementType;
        if (!ft) throw new Error(`${key}: field not declared in schema`);
        path.push({ fieldName: key });
        walk(ft, val);
        if (val === null || (isMap(val) && Object.keys(val).length === 0) || !field)
          set.insert(path);
        path.pop();
      }
    }
  };
  walk(typeRef, value);
  return set;
}
