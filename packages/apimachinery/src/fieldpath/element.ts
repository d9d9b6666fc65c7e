// Path elements (structured-merge-diff fieldpath/element.go): one step into an object, a field
// name (`f:`), an associative list item by its key fields (`k:`), a set item by its value
// (`v:`) or a list item by its index (`i:`); their total order (field < key < value < index),
// their path-string form, and the sorted PathElementSet.
import type { JsonValue } from './value.js';
import { compareStrings, compareValues, valueEquals, valueToString } from './value.js';

/** One key field of an associative list item (value.Field). */
export interface Field {
  readonly name: string;
  readonly value: JsonValue;
}

/** The key fields of an associative list item, sorted by name (value.FieldList). */
export type FieldList = readonly Field[];

/** Exactly one of the four members is set. */
export interface PathElement {
  readonly fieldName?: string;
  readonly key?: FieldList;
  readonly value?: JsonValue;
  readonly index?: number;
}

/** FieldList.Compare: lexical over (name, value), the shorter list first. */
export function compareFieldLists(a: FieldList, b: FieldList): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const x = a[i] as Field;
    const y = b[i] as Field;
    const c = compareStrings(x.name, y.name);
    if (c !== 0) return c;
    const d = compareValues(x.value, y.value);
    if (d !== 0) return d;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** PathElement.Compare. */
export function comparePathElements(e: PathElement, rhs: PathElement): number {
  if (e.fieldName !== undefined) {
    if (rhs.fieldName === undefined) return -1;
    return compareStrings(e.fieldName, rhs.fieldName);
  } else if (rhs.fieldName !== undefined) return 1;
  if (e.key !== undefined) {
    if (rhs.key === undefined) return -1;
    return compareFieldLists(e.key, rhs.key);
  } else if (rhs.key !== undefined) return 1;
  if (e.value !== undefined) {
    if (rhs.value === undefined) return -1;
    return compareValues(e.value, rhs.value);
  } else if (rhs.value !== undefined) return 1;
  if (e.index !== undefined) {
    if (rhs.index === undefined) return -1;
    return e.index < rhs.index ? -1 : e.index > rhs.index ? 1 : 0;
  } else if (rhs.index !== undefined) return 1;
  return 0;
}

/** PathElement.Equals. */
export function pathElementEquals(e: PathElement, rhs: PathElement): boolean {
  if (e.fieldName !== undefined || rhs.fieldName !== undefined)
    return e.fieldName === rhs.fieldName;
  if (e.key !== undefined || rhs.key !== undefined) {
    if (e.key === undefined || rhs.key === undefined || e.key.length !== rhs.key.length)
      return false;
    for (let i = 0; i < e.key.length; i++) {
      const x = e.key[i] as Field;
      const y = rhs.key[i] as Field;
      if (x.name !== y.name || !valueEquals(x.value, y.value)) return false;
    }
    return true;
  }
  if (e.value !== undefined || rhs.value !== undefined)
    return e.value !== undefined && rhs.value !== undefined && valueEquals(e.value, rhs.value);
  return e.index === rhs.index;
}

/** PathElement.String: `.name`, `[k=v,k2=v2]`, `[=v]`, `[3]`. */
export function pathElementString(e: PathElement): string {
  if (e.fieldName !== undefined) return `.${e.fieldName}`;
  if (e.key !== undefined)
    return `[${e.key.map((f) => `${f.name}=${valueToString(f.value)}`).join(',')}]`;
  if (e.value !== undefined) return `[=${valueToString(e.value)}]`;
  if (e.index !== undefined) return `[${e.index}]`;
  return '{{invalid path element}}';
}

/** A field-name element. */
export const fieldElement = (name: string): PathElement => ({ fieldName: name });

/** KeyByFields: a key element from name, value pairs (sorted by name as upstream). */
export function keyByFields(...nameValues: JsonValue[]): PathElement {
  if (nameValues.length % 2 !== 0) throw new Error('keyByFields: odd number of arguments');
  const key: Field[] = [];
  for (let i = 0; i < nameValues.length; i += 2) {
    const name = nameValues[i];
    if (typeof name !== 'string') throw new Error('keyByFields: a field name must be a string');
    key.push({ name, value: nameValues[i + 1] as JsonValue });
  }
  key.sort((a, b) => compareStrings(a.name, b.name));
  return { key };
}

/** Binary search in a sorted array: the index of pe, or -(insertion point) - 1. */
export function searchSorted<T>(
  items: readonly T[],
  pe: PathElement,
  at: (t: T) => PathElement
): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = comparePathElements(at(items[mid] as T), pe);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -lo - 1;
}

const self = (pe: PathElement): PathElement => pe;

/** A sorted set of path elements (PathElementSet). */
export class PathElementSet {
  /** Sorted by comparePathElements, without duplicates. */
  readonly members: PathElement[];

  constructor(sortedMembers: PathElement[] = []) {
    this.members = sortedMembers;
  }

  insert(pe: PathElement): void {
    const i = searchSorted(this.members, pe, self);
    if (i >= 0) return;
    const at = -i - 1;
    if (at === this.members.length) this.members.push(pe);
    else this.members.splice(at, 0, pe);
  }

  has(pe: PathElement): boolean {
    return searchSorted(this.members, pe, self) >= 0;
  }

  size(): number {
    return this.members.length;
  }

  union(s2: PathElementSet): PathElementSet {
    const a = this.members;
    const b = s2.members;
    const out: PathElement[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const c = comparePathElements(a[i] as PathElement, b[j] as PathElement);
      if (c < 0) out.push(a[i++] as PathElement);
      else if (c > 0) out.push(b[j++] as PathElement);
      else {
        out.push(a[i++] as PathElement);
        j++;
      }
    }
    while (i < a.length) out.push(a[i++] as PathElement);
    while (j < b.length) out.push(b[j++] as PathElement);
    return new PathElementSet(out);
  }

  intersection(s2: PathElementSet): PathElementSet {
    const a = this.members;
    const b = s2.members;
    const out: PathElement[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const c = comparePathElements(a[i] as PathElement, b[j] as PathElement);
      if (c < 0) i++;
      else if (c > 0) j++;
      else {
        out.push(a[i++] as PathElement);
        j++;
      }
    }
    return new PathElementSet(out);
  }

  difference(s2: PathElementSet): PathElementSet {
    const a = this.members;
    const b = s2.members;
    const out: PathElement[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const c = comparePathElements(a[i] as PathElement, b[j] as PathElement);
      if (c < 0) out.push(a[i++] as PathElement);
      else if (c > 0) j++;
      else {
        i++;
        j++;
      }
    }
    while (i < a.length) out.push(a[i++] as PathElement);
    return new PathElementSet(out);
  }

  equals(s2: PathElementSet): boolean {
    if (this.members.length !== s2.members.length) return false;
    for (let i = 0; i < this.members.length; i++)
      if (!pathElementEquals(this.members[i] as PathElement, s2.members[i] as PathElement))
        return false;
    return true;
  }

  iterate(f: (pe: PathElement) => void): void {
    for (const pe of this.members) f(pe);
  }
}
