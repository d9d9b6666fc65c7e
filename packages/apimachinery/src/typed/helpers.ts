// Shared walker pieces (structured-merge-diff typed/helpers.go): validation errors with the
// path they occurred at, how an atom is chosen for a value (deduceAtom, handleAtom), and the
// path element of a list item: its key fields for an associative list with keys (a missing key
// takes the field's default), its value for a set.
import type { Field, JsonValue, Path, PathElement } from '../fieldpath/index.js';
import { compareStrings, isMap, pathString } from '../fieldpath/index.js';
import type { Atom, ListType, Schema } from './schema.js';

export interface ValidationError {
  readonly path: string;
  readonly message: string;
}

/** ValidationErrors: one or more problems, each at a path. */
export class ValidationErrors extends Error {
  override readonly name = 'ValidationErrors';
  readonly errors: readonly ValidationError[];

  constructor(errors: readonly ValidationError[]) {
    super(errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('\n'));
    this.errors = errors;
  }
}

export function errorAt(path: Path, message: string): ValidationError {
  return { path: pathString(path), message };
}

export type AtomKind = 'map' | 'scalar' | 'list';

/** deduceAtom then handleAtom's order: the branch of an atom a value is handled by. */
export function atomKind(atom: Atom, v: JsonValue | undefined): AtomKind | undefined {
  if (v !== undefined && v !== null) {
    if (Array.isArray(v)) {
      if (atom.list) return 'list';
    } else if (typeof v === 'object') {
      if (atom.map) return 'map';
    } else if (atom.scalar) return 'scalar';
  }
  if (atom.map) return 'map';
  if (atom.scalar) return 'scalar';
  if (atom.list) return 'list';
  return undefined;
}

export function describe(v: JsonValue | undefined): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'object') return 'map';
  return typeof v === 'number' ? 'numeric' : typeof v;
}

/** listItemToPathElement; throws with the reason when the item cannot be keyed. */
export function listItemToPathElement(
  schema: Schema,
  list: ListType,
  child: JsonValue
): PathElement {
  if (list.elementRelationship !== 'associative')
    throw new Error('invalid indexing of non-associative list');
  if (list.keys.length > 0) return keyedItemToPathElement(schema, list, child);
  // A set of scalars.
  if (child === null)
    throw new Error("associative list without keys has an element that's an explicit null");
  if (Array.isArray(child))
    throw new Error('not supported: associative list with lists as elements');
  if (typeof child === 'object')
    throw new Error("associative list without keys has an element that's a map type");
  return { value: child };
}

function keyedItemToPathElement(schema: Schema, list: ListType, child: JsonValue): PathElement {
  if (child === null) throw new Error('associative list with keys may not have a null element');
  if (!isMap(child)) throw new Error('associative list with keys may not have non-map elements');
  const key: Field[] = [];
  for (const name of list.keys) {
    const v = child[name];
    if (v !== undefined && v !== null) {
      if (typeof v === 'object')
        throw new Error(`associative list key field ${JSON.stringify(name)} must be a scalar`);
      key.push({ name, value: v });
      continue;
    }
    const def = keyDefault(schema, list, name);
    if (def === undefined)
      throw new Error(
        `associative list with keys has an element that omits key field ${JSON.stringify(name)} (and doesn't have default value)`
      );
    key.push({ name, value: def });
  }
  key.sort((a, b) => compareStrings(a.name, b.name));
  return { key };
}

function keyDefault(schema: Schema, list: ListType, name: string): JsonValue | undefined {
  const atom = schema.resolve(list.elementType);
  if (!atom?.map) return undefined;
  return schema.findField(atom.map, name)?.default;
}

/** The item path element or the error it throws, for walkers that report instead of throwing. */
export function tryListItem(schema: Schema, list: ListType, child: JsonValue): PathElement | Error {
  try {
    return listItemToPathElement(schema, list, child);
  } catch (err) {
    return err as Error;
  }
}
