// Removing or extracting fields of a value (structured-merge-diff typed/remove.go): with
// extract false, every item and field in the set is dropped (an atomic list or map below the
// set is dropped whole); with extract true, only they are kept: a member whole, unless paths
// below it are in the set, then only those. A list or map left with nothing becomes null, as
// upstream's (Kubernetes then drops such nulls when it converts to the typed object; the API
// server here must drop them too).
import type { JsonObject, JsonValue, PathElement } from '../fieldpath/index.js';
import type { Set as FieldSet } from '../fieldpath/index.js';
import { isMap } from '../fieldpath/index.js';
import { atomKind, tryListItem } from './helpers.js';
import type { Schema, TypeRef } from './schema.js';

export function removeItemsWithSchema(
  schema: Schema,
  typeRef: TypeRef,
  value: JsonValue,
  toRemove: FieldSet,
  shouldExtract: boolean
): JsonValue {
  const atom = schema.resolve(typeRef);
  if (!atom) return value;
  /** What is left of one item or field (undefined: dropped). */
  const pick = (pe: PathElement, v: JsonValue, tr: TypeRef): JsonValue | undefined => {
    const member = toRemove.has([pe]);
    const subset = toRemove.withPrefix(pe);
    if (!shouldExtract) {
      if (member) return undefined;
      return subset.empty() ? v : removeItemsWithSchema(schema, tr, v, subset, false);
    }
    if (subset.empty()) return member ? v : undefined;
    return removeItemsWithSchema(schema, tr, v, subset, true);
  };
  const kind = atomKind(atom, value);
  if (kind === 'list') {
    const list = atom.list!;
    if (!Array.isArray(value)) return value;
    if (value.length === 0) return null;
    if (list.elementRelationship === 'atomic') return shouldExtract ? value : null;
    const out: JsonValue[] = [];
    for (const item of value) {
      const pe = tryListItem(schema, list, item);
      if (pe instanceof Error) {
        if (!shouldExtract) out.push(item);
        continue;
      }
      const v = pick(pe, item, list.elementType);
      if (v !== undefined) out.push(v);
    }
    return out.length > 0 ? out : null;
  }
  if (kind === 'map') {
    const map = atom.map!;
    if (!isMap(value)) return value;
    const keys = Object.keys(value);
    if (keys.length === 0) return null;
    if (map.elementRelationship === 'atomic') return shouldExtract ? value : null;
    const out: JsonObject = {};
    for (const k of keys) {
      const ft = schema.findField(map, k)?.type ??
        map.elementType ?? { namedType: '__untyped_deduced_' };
      const v = pick({ fieldName: k }, value[k] as JsonValue, ft);
      if (v !== undefined) out[k] = v;
    }
    return Object.keys(out).length > 0 ? out : null;
  }
  return value;
}
