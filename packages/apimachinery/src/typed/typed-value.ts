// A value with its type (structured-merge-diff typed/typed.go and parser.go): ParseableType
// validates an object into a TypedValue, which computes its field set, compares and merges
// with another value of the same type, and removes or extracts a set of fields.
import type { JsonValue, PathElement } from '../fieldpath/index.js';
import { PathElementSet, Set as FieldSet, SetNodeMap } from '../fieldpath/index.js';
import type { SchemaModel } from '../schema-model/index.js';
import type { GroupVersionKind } from '../schema/index.js';
import type { Comparison } from './compare.js';
import { compareValuesOfType } from './compare.js';
import { ValidationErrors } from './helpers.js';
import { mergeValuesOfType } from './merge.js';
import { reconcileFieldSetWithSchema } from './reconcile-schema.js';
import { removeItemsWithSchema } from './remove.js';
import { toFieldSet } from './tofieldset.js';
import type { Schema, TypeRef } from './schema.js';
import { Schema as SchemaClass, deducedTypeRef } from './schema.js';
import { kindTypeRef } from './schema-from-model.js';
import type { ValidateOptions } from './validate.js';
import { validateValue } from './validate.js';

export class TypedValue {
  constructor(
    readonly value: JsonValue,
    readonly typeRef: TypeRef,
    readonly schema: Schema
  ) {}

  /** Validate: throws ValidationErrors when the value does not fit its type. */
  validate(opts: ValidateOptions = {}): void {
    const errs = validateValue(this.schema, this.typeRef, this.value, opts);
    if (errs.length > 0) throw new ValidationErrors(errs);
  }

  /** ToFieldSet: the fields this value sets. */
  toFieldSet(): FieldSet {
    return this.wrap(() => toFieldSetOf(this));
  }

  /** Merge: this value with pso merged over it (pso wins at the leaves). */
  merge(pso: TypedValue): TypedValue {
    this.sameType(pso);
    const out = this.wrap(() =>
      mergeValuesOfType(this.schema, this.typeRef, this.value, pso.value)
    );
    return new TypedValue(out, this.typeRef, this.schema);
  }

  /** Compare: what changes from this value to rhs. */
  compare(rhs: TypedValue): Comparison {
    this.sameType(rhs);
    return this.wrap(() => compareValuesOfType(this.schema, this.typeRef, this.value, rhs.value));
  }

  /** RemoveItems: this value without the given fields. */
  removeItems(items: FieldSet): TypedValue {
    const out = removeItemsWithSchema(this.schema, this.typeRef, this.value, items, false);
    return new TypedValue(out, this.typeRef, this.schema);
  }

  /** ExtractItems: only the given fields of this value. */
  extractItems(items: FieldSet): TypedValue {
    const out = removeItemsWithSchema(this.schema, this.typeRef, this.value, items, true);
    return new TypedValue(out, this.typeRef, this.schema);
  }

  /** Empty: a null value of the same type. */
  empty(): TypedValue {
    return new TypedValue(null, this.typeRef, this.schema);
  }

  private sameType(rhs: TypedValue): void {
    if (this.schema !== rhs.schema)
      throw new Error('expected objects with types from the same schema');
    if (
      this.typeRef.namedType !== rhs.typeRef.namedType ||
      this.typeRef.inlined !== rhs.typeRef.inlined
    )
      throw new Error('expected objects of the same type');
  }

  private wrap<T>(f: () => T): T {
    try {
      return f();
    } catch (err) {
      if (err instanceof ValidationErrors) throw err;
      throw new ValidationErrors([{ path: '', message: (err as Error).message }]);
    }
  }
}

function toFieldSetOf(tv: TypedValue): FieldSet {
  return toFieldSet(tv.schema, tv.typeRef, tv.value);
}

/** ParseableType: a type objects are parsed as. */
export class ParseableType {
  constructor(
    readonly schema: Schema,
    readonly typeRef: TypeRef
  ) {}

  /** FromUnstructured: the object as a TypedValue, validated (throws ValidationErrors). */
  fromUnstructured(value: JsonValue, opts: ValidateOptions = {}): TypedValue {
    const tv = new TypedValue(value, this.typeRef, this.schema);
    tv.validate(opts);
    return tv;
  }

  /** IsValid: whether the type resolves. */
  isValid(): boolean {
    return this.schema.resolve(this.typeRef) !== undefined;
  }
}

let deduced: ParseableType | undefined;

/** DeducedParseableType: objects without a schema (every key a field, every list atomic). */
export function deducedParseableType(): ParseableType {
  deduced ??= new ParseableType(new SchemaClass(), deducedTypeRef);
  return deduced;
}

/** The type of a kind in a schema model, or the deduced type when the model has none. */
export function parseableTypeFor(model: SchemaModel, gvk: GroupVersionKind): ParseableType {
  const found = kindTypeRef(model, gvk);
  return found ? new ParseableType(found.schema, found.typeRef) : deducedParseableType();
}

/**
 * Set.EnsureNamedFieldsAreMembers: the set plus, at every level, the struct fields that have
 * children (a struct field is owned by whoever owns a field below it; map entries are not).
 */
export function ensureNamedFieldsAreMembers(s: FieldSet, schema: Schema, tr: TypeRef): FieldSet {
  const atom = schema.resolve(tr);
  // The children are sorted, so the named fields among them are too: one linear union.
  const named: PathElement[] = [];
  const children = s.children.members.map((node) => {
    const pe = node.pathElement;
    let childType: TypeRef | undefined;
    if (pe.fieldName !== undefined && atom?.map) {
      const field = schema.findField(atom.map, pe.fieldName);
      if (field) named.push(pe);
      childType = field?.type ?? atom.map.elementType;
    } else if (atom?.list) childType = atom.list.elementType;
    return {
      pathElement: pe,
      set: childType ? ensureNamedFieldsAreMembers(node.set, schema, childType) : node.set,
    };
  });
  const extra = s.members.union(new PathElementSet(named));
  return new FieldSet(extra, new SetNodeMap(children));
}

/** ReconcileFieldSetWithSchema over a typed value. */
export function reconcileWithSchema(fieldset: FieldSet, tv: TypedValue): FieldSet | undefined {
  return reconcileFieldSetWithSchema(fieldset, tv.schema, tv.typeRef);
}
