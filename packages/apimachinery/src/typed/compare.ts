// Comparing two values of one type (structured-merge-diff typed/compare.go): the fields
// removed, modified and added from lhs to rhs. Leaves (scalars, atomic lists and maps, and
// empty-or-null lists and maps) are compared by value; an inner node is added or removed when
// it appears or disappears. Associative list items are matched by their path element; items
// whose key is duplicated compare as one atomic group, as upstream.
import type { Filter, JsonValue, PathElement } from '../fieldpath/index.js';
import {
  Set as FieldSet,
  isMap,
  pathString,
  serializePathElement,
  valueEquals,
} from '../fieldpath/index.js';
import { atomKind, listItemToPathElement } from './helpers.js';
import type { Schema, TypeRef } from './schema.js';

/** Comparison: the difference between two values as three sets. */
export class Comparison {
  constructor(
    /** Fields in lhs and not in rhs. */
    readonly removed: FieldSet = new FieldSet(),
    /** Fields in both whose values differ. */
    readonly modified: FieldSet = new FieldSet(),
    /** Fields in rhs and not in lhs. */
    readonly added: FieldSet = new FieldSet()
  ) {}

  isSame(): boolean {
    return this.removed.empty() && this.modified.empty() && this.added.empty();
  }

  /** Comparison.FilterFields: each set through the filter. */
  filterFields(filter: Filter | undefined): Comparison {
    if (!filter) return this;
    return new Comparison(filter(this.removed), filter(this.modified), filter(this.added));
  }

  /** Comparison.ExcludeFields: drops the given fields (and everything below them). */
  excludeFields(fields: FieldSet | undefined): Comparison {
    if (!fields || fields.empty()) return this;
    return new Comparison(
      this.removed.recursiveDifference(fields),
      this.modified.recursiveDifference(fields),
      this.added.recursiveDifference(fields)
    );
  }

  toString(): string {
    const parts: string[] = [];
    if (!this.modified.empty()) parts.push(`- Modified Fields:\n${this.modified.toString()}\n`);
    if (!this.added.empty()) parts.push(`- Added Fields:\n${this.added.toString()}\n`);
    if (!this.removed.empty()) parts.push(`- Removed Fields:\n${this.removed.toString()}\n`);
    return parts.join('');
  }
}

export function compareValuesOfType(
  schema: Schema,
  typeRef: TypeRef,
  lhs: JsonValue,
  rhs: JsonValue
): Comparison {
  const c = new Comparison();
  const path: PathElement[] = [];

  const leaf = (l: JsonValue | undefined, r: JsonValue | undefined): void => {
    if (l === undefined) c.added.insert(path);
    else if (r === undefined) c.removed.insert(path);
    else if (!valueEquals(l, r)) c.modified.insert(path);
  };

  /** handleAtom for one kind; true when the node was compared as a leaf. */
  const handle = (
    tr: TypeRef,
    kind: string | undefined,
    l: JsonValue | undefined,
    r: JsonValue | undefined
  ): boolean => {
    const atom = schema.resolve(tr)!;
    if (kind === 'scalar') {
      leaf(l, r);
      return true;
    }
    if (kind === 'list') {
      const list = atom.list!;
      const ll = Array.isArray(l) ? l : undefined;
      const rl = Array.isArray(r) ? r : undefined;
      if (
        list.elementRelationship === 'atomic' ||
        ((!ll || ll.length === 0) && (!rl || rl.length === 0))
      ) {
        leaf(l, r);
        return true;
      }
      visitListItems(tr, ll, rl);
      return false;
    }
    if (kind === 'map') {
      const map = atom.map!;
      const lm = isMap(l) ? l : undefined;
      const rm = isMap(r) ? r : undefined;
      const lEmpty = !lm || Object.keys(lm).length === 0;
      const rEmpty = !rm || Object.keys(rm).length === 0;
      if (map.elementRelationship === 'atomic' || (lEmpty && rEmpty)) {
        leaf(l, r);
        return true;
      }
      const keys = new Set<string>();
      if (lm) for (const k of Object.keys(lm)) keys.add(k);
      if (rm) for (const k of Object.keys(rm)) keys.add(k);
      for (const k of keys) {
        const ft = schema.findField(map, k)?.type ?? map.elementType;
        if (!ft) throw new Error(`${pathString(path)}.${k}: field not declared in schema`);
        path.push({ fieldName: k });
        walk(ft, lm?.[k], rm?.[k]);
        path.pop();
      }
    }
    return false;
  };

  const walk = (tr: TypeRef, l: JsonValue | undefined, r: JsonValue | undefined): void => {
    const atom = schema.resolve(tr);
    if (!atom)
      throw new Error(
        `${pathString(path)}: schema error: no type found matching: ${tr.namedType ?? ''}`
      );
    const kl = l === undefined ? undefined : atomKind(atom, l);
    const kr = r === undefined ? undefined : atomKind(atom, r);
    let inLeaf: boolean;
    if (r === undefined) inLeaf = handle(tr, kl, l, r);
    else if (l === undefined || kl === kr) inLeaf = handle(tr, kr, l, r);
    else {
      // Of different forms (a schemaless value): each side handled as its own kind, as upstream.
      handle(tr, kl, l, r);
      inLeaf = handle(tr, kr, l, r);
    }
    if (!inLeaf) {
      if (l === undefined) c.added.insert(path);
      else if (r === undefined) c.removed.insert(path);
    }
  };

  const visitListItems = (
    tr: TypeRef,
    l: JsonValue[] | undefined,
    r: JsonValue[] | undefined
  ): void => {
    const list = schema.resolve(tr)!.list!;
    const allPEs: PathElement[] = [];
    const lValues = new Map<string, JsonValue[]>();
    const rValues = new Map<string, JsonValue[]>();
    const index = (
      items: JsonValue[] | undefined,
      into: Map<string, JsonValue[]>,
      other?: Map<string, JsonValue[]>
    ) => {
      for (const item of items ?? []) {
        const pe = listItemToPathElement(schema, list, item);
        const id = serializePathElement(pe);
        const seen = into.get(id);
        if (seen) seen.push(item);
        else {
          into.set(id, [item]);
          if (!other?.has(id)) allPEs.push(pe);
        }
      }
    };
    index(l, lValues);
    index(r, rValues, lValues);
    for (const pe of allPEs) {
      const id = serializePathElement(pe);
      const lList = lValues.get(id) ?? [];
      const rList = rValues.get(id) ?? [];
      path.push(pe);
      if (lList.length <= 1 && rList.length <= 1) walk(list.elementType, lList[0], rList[0]);
      else if (lList.length >= 2 && rList.length >= 2) {
        if (!valueEquals(lList, rList)) c.modified.insert(path);
      } else if (lList.length >= 2) {
        if (rList.length !== 0) walk(list.elementType, undefined, rList[0]);
        c.removed.insert(path);
      } else {
        if (lList.length !== 0) walk(list.elementType, lList[0], undefined);
        c.added.insert(path);
      }
      path.pop();
    }
  };

  walk(typeRef, lhs, rhs);
  return c;
}
