// Validation of a value against its type (structured-merge-diff typed/validate.go): scalars of
// the declared kind, lists and maps where the schema has them, struct keys the schema declares,
// associative list items that can be keyed and (unless duplicates are allowed, as for objects
// already stored) are unique. null is accepted anywhere, as upstream.
import type { JsonValue, PathElement } from '../fieldpath/index.js';
import { isMap, serializePathElement } from '../fieldpath/index.js';
import type { ValidationError } from './helpers.js';
import { atomKind, describe, errorAt, tryListItem } from './helpers.js';
import type { Scalar, Schema, TypeRef } from './schema.js';

export interface ValidateOptions {
  /** Accept associative list items with the same key (upstream typed.AllowDuplicates). */
  allowDuplicates?: boolean;
}

function scalarMatches(s: Scalar, v: JsonValue): boolean {
  switch (s) {
    case 'numeric':
      return typeof v === 'number';
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    default:
      return typeof v !== 'object';
  }
}

export function validateValue(
  schema: Schema,
  typeRef: TypeRef,
  value: JsonValue,
  opts: ValidateOptions = {}
): ValidationError[] {
  const errs: ValidationError[] = [];
  const path: PathElement[] = [];
  const walk = (tr: TypeRef, v: JsonValue): void => {
    const atom = schema.resolve(tr);
    if (!atom) {
      errs.push(
        errorAt(path, `schema error: no type found matching: ${tr.namedType ?? '(inlined)'}`)
      );
      return;
    }
    if (v === null) return;
    const kind = atomKind(atom, v);
    if (kind === 'scalar') {
      if (typeof v === 'object' || !scalarMatches(atom.scalar as Scalar, v))
        errs.push(errorAt(path, `expected ${atom.scalar as string}, got ${describe(v)}`));
      return;
    }
    if (kind === 'list') {
      const list = atom.list!;
      if (!Array.isArray(v)) {
        errs.push(errorAt(path, `expected list, got ${describe(v)}`));
        return;
      }
      if (list.elementRelationship === 'atomic') {
        v.forEach((item, i) => {
          path.push({ index: i });
          walk(list.elementType, item);
          path.pop();
        });
        return;
      }
      const seen = new Set<string>();
      v.forEach((item, i) => {
        const pe = tryListItem(schema, list, item);
        if (pe instanceof Error) {
          path.push({ index: i });
          errs.push(errorAt(path, pe.message));
          path.pop();
          return;
        }
        const id = serializePathElement(pe);
        if (seen.has(id) && !opts.allowDuplicates)
          errs.push(errorAt(path, `duplicate entries for key ${id.slice(2)}`));
        seen.add(id);
        path.push(pe);
        walk(list.elementType, item);
        path.pop();
      });
      return;
    }
    if (kind === 'map') {
      const map = atom.map!;
      if (!isMap(v)) {
        errs.push(errorAt(path, `expected map, got ${describe(v)}`));
        return;
      }
      for (const key of Object.keys(v)) {
        const field = schema.findField(map, key);
        const ft = field?.type ?? map.elementType;
        path.push({ fieldName: key });
        if (!ft) errs.push(errorAt(path, 'field not declared in schema'));
        else walk(ft, v[key] as JsonValue);
        path.pop();
      }
      return;
    }
    errs.push(errorAt(path, 'schema error: the type has no atom'));
  };
  walk(typeRef, value);
  return errs;
}
