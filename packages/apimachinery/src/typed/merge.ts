// Merging two values of one type (structured-merge-diff typed/merge.go with ruleKeepRHS): maps
// are merged key by key, associative lists item by item (matched by path element, in the order
// upstream's merge keeps: rhs order for the items rhs has, lhs items rhs lacks kept where they
// stood), and leaves (scalars, atomic lists and maps, empty lists and maps) are taken from rhs
// when rhs has them. A list or map that merges to nothing is left out.
import type { JsonObject, JsonValue, PathElement } from '../fieldpath/index.js';
import { isMap, pathString, serializePathElement } from '../fieldpath/index.js';
import { ValidationErrors, atomKind, errorAt, tryListItem } from './helpers.js';
import type { ValidationError } from './helpers.js';
import type { ListType, Schema, TypeRef } from './schema.js';

export function mergeValuesOfType(
  schema: Schema,
  typeRef: TypeRef,
  lhs: JsonValue,
  rhs: JsonValue
): JsonValue {
  const errs: ValidationError[] = [];
  const path: PathElement[] = [];

  const walk = (
    tr: TypeRef,
    l: JsonValue | undefined,
    r: JsonValue | undefined
  ): JsonValue | undefined => {
    const atom = schema.resolve(tr);
    if (!atom)
      throw new Error(
        `${pathString(path)}: schema error: no type found matching: ${tr.namedType ?? ''}`
      );
    const kl = l === undefined ? undefined : atomKind(atom, l);
    const kr = r === undefined ? undefined : atomKind(atom, r);
    if (kl !== undefined && kr !== undefined && kl !== kr) l = undefined;
    const kind = kr ?? kl;
    const leaf = (): JsonValue | undefined => (r !== undefined ? r : l);
    if (kind === 'list') {
      const list = atom.list!;
      const ll = Array.isArray(l) ? l : undefined;
      const rl = Array.isArray(r) ? r : undefined;
      if (
        list.elementRelationship === 'atomic' ||
        ((!ll || ll.length === 0) && (!rl || rl.length === 0))
      )
        return leaf();
      return visitListItems(list, ll, rl);
    }
    if (kind === 'map') {
      const map = atom.map!;
      const lm = isMap(l) ? l : undefined;
      const rm = isMap(r) ? r : undefined;
      const lEmpty = !lm || Object.keys(lm).length === 0;
      const rEmpty = !rm || Object.keys(rm).length === 0;
      if (map.elementRelationship === 'atomic' || (lEmpty && rEmpty)) return leaf();
      const out: JsonObject = {};
      const visit = (k: string): void => {
        const ft = schema.findField(map, k)?.type ?? map.elementType;
        path.push({ fieldName: k });
        if (!ft) errs.push(errorAt(path, 'field not declared in schema'));
        else {
          const v = walk(ft, lm?.[k], rm?.[k]);
          if (v !== undefined) out[k] = v;
        }
        path.pop();
      };
      if (lm) for (const k of Object.keys(lm)) visit(k);
      if (rm)
        for (const k of Object.keys(rm))
          if (!lm || !Object.prototype.hasOwnProperty.call(lm, k)) visit(k);
      return Object.keys(out).length > 0 ? out : undefined;
    }
    return leaf();
  };

  /** Indexes a list by path element; a duplicated element maps to null (never merged), as upstream. */
  const indexList = (list: ListType, items: JsonValue[] | undefined, allowDuplicates: boolean) => {
    const pes: PathElement[] = [];
    const ids: string[] = [];
    const observed = new Map<string, JsonValue>();
    (items ?? []).forEach((item, i) => {
      const pe = tryListItem(schema, list, item);
      if (pe instanceof Error) {
        errs.push(errorAt(path, `element ${i}: ${pe.message}`));
        return;
      }
      const id = serializePathElement(pe);
      if (observed.has(id)) {
        if (!allowDuplicates) {
          errs.push(errorAt(path, `duplicate entries for key ${id.slice(2)}`));
          return;
        }
        observed.set(id, null);
      } else observed.set(id, item);
      pes.push(pe);
      ids.push(id);
    });
    return { pes, ids, observed };
  };

  const visitListItems = (
    list: ListType,
    l: JsonValue[] | undefined,
    r: JsonValue[] | undefined
  ): JsonValue | undefined => {
    const rhs = indexList(list, r, false);
    const lhs = indexList(list, l, true);
    if (errs.length > 0) return undefined;
    const out: JsonValue[] = [];
    const mergeItem = (
      pe: PathElement,
      lChild: JsonValue | undefined,
      rChild: JsonValue | undefined
    ) => {
      path.push(pe);
      const v = walk(list.elementType, lChild, rChild);
      path.pop();
      if (v !== undefined) out.push(v);
    };
    const sharedOrder = rhs.ids.filter((id) => lhs.observed.has(id));
    let shared = 0;
    const nextShared = (): string | undefined => sharedOrder[shared];
    const mergedRHS = new Set<string>();
    let lI = 0;
    let rI = 0;
    while (lI < lhs.pes.length || rI < rhs.pes.length) {
      if (lI < lhs.pes.length && rI < rhs.pes.length) {
        const id = lhs.ids[lI] as string;
        if (id === rhs.ids[rI]) {
          mergedRHS.add(id);
          mergeItem(lhs.pes[lI] as PathElement, lhs.observed.get(id), rhs.observed.get(id));
          lI++;
          rI++;
          shared++;
          continue;
        }
        if (rhs.observed.has(id) && nextShared() !== undefined && nextShared() !== id) {
          // A shared item, but not the one wanted in this round.
          lI++;
          continue;
        }
      }
      if (lI < lhs.pes.length) {
        const id = lhs.ids[lI] as string;
        if (!rhs.observed.has(id)) {
          // Take the lhs item by position so that duplicates are all kept.
          mergeItem(lhs.pes[lI] as PathElement, l?.[lI], undefined);
          lI++;
          continue;
        } else if (mergedRHS.has(id)) {
          // Already merged with its rhs item: skip it, and go on to the rhs item (as upstream).
          lI++;
        }
      }
      if (rI < rhs.pes.length) {
        const id = rhs.ids[rI] as string;
        mergedRHS.add(id);
        mergeItem(rhs.pes[rI] as PathElement, lhs.observed.get(id), rhs.observed.get(id));
        rI++;
        if (nextShared() === id) shared++;
      }
    }
    return out.length > 0 ? out : undefined;
  };

  const out = walk(typeRef, lhs, rhs);
  if (errs.length > 0) throw new ValidationErrors(errs);
  return out === undefined ? null : out;
}
