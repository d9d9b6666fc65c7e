// The schema structured-merge-diff merges by (sigs.k8s.io/structured-merge-diff/v4/schema,
// elements.go): named types resolving to atoms, an atom being a scalar, a list (atomic, or
// associative: a set of scalars or a map keyed by key fields) or a map (the fields of a struct
// and/or an element type; separable or atomic). The two deduced types stand for objects
// without a schema: maps separable, lists atomic (upstream's __untyped_deduced_).
import type { JsonValue } from '../fieldpath/index.js';

export type ElementRelationship = 'associative' | 'atomic' | 'separable';
export type Scalar = 'numeric' | 'string' | 'boolean' | 'untyped';

/** A reference to a type: by name or inlined; elementRelationship overrides a map's. */
export interface TypeRef {
  readonly namedType?: string;
  readonly inlined?: Atom;
  readonly elementRelationship?: ElementRelationship;
}

export interface StructField {
  readonly name: string;
  readonly type: TypeRef;
  /** The value the field takes when absent (used for associative keys, as upstream). */
  readonly default?: JsonValue;
}

export interface MapType {
  readonly fields: readonly StructField[];
  /** The type of keys that are not fields; undefined when only the fields are allowed. */
  readonly elementType?: TypeRef;
  readonly elementRelationship: 'separable' | 'atomic';
}

export interface ListType {
  readonly elementType: TypeRef;
  readonly elementRelationship: 'atomic' | 'associative';
  /** Key fields of an associative list of maps; empty for a set of scalars. */
  readonly keys: readonly string[];
}

export interface Atom {
  readonly scalar?: Scalar;
  readonly list?: ListType;
  readonly map?: MapType;
}

export const untypedAtomicName = '__untyped_atomic_';
export const untypedDeducedName = '__untyped_deduced_';

const untypedAtomic: TypeRef = { namedType: untypedAtomicName };
const untypedDeduced: TypeRef = { namedType: untypedDeducedName };

/** The type of an object without a schema: every key a field, every list atomic. */
export const deducedTypeRef: TypeRef = untypedDeduced;

const deducedTypes: [string, Atom][] = [
  [
    untypedAtomicName,
    {
      scalar: 'untyped',
      list: { elementType: untypedAtomic, elementRelationship: 'atomic', keys: [] },
      map: { fields: [], elementType: untypedAtomic, elementRelationship: 'atomic' },
    },
  ],
  [
    untypedDeducedName,
    {
      scalar: 'untyped',
      list: { elementType: untypedAtomic, elementRelationship: 'atomic', keys: [] },
      map: { fields: [], elementType: untypedDeduced, elementRelationship: 'separable' },
    },
  ],
];

/** Schema: named types and their resolution. */
export class Schema {
  private readonly types: Map<string, Atom>;
  private readonly overridden = new Map<string, Atom>();
  private readonly fieldIndex = new WeakMap<MapType, Map<string, StructField>>();

  constructor(types: Iterable<[string, Atom]> = []) {
    this.types = new Map(deducedTypes);
    for (const [name, atom] of types) this.types.set(name, atom);
  }

  /** A new schema with this one's named types and the given ones; this one is left as it is. */
  extend(types: Iterable<[string, Atom]>): Schema {
    const out = new Schema(this.types);
    for (const [name, atom] of types) out.types.set(name, atom);
    return out;
  }

  /** Adds or replaces a named type. */
  define(name: string, atom: Atom): void {
    this.types.set(name, atom);
  }

  has(name: string): boolean {
    return this.types.has(name);
  }

  /** Schema.Resolve: the atom of a type reference, the map's relationship overridden. */
  resolve(tr: TypeRef): Atom | undefined {
    const base =
      tr.inlined ?? (tr.namedType !== undefined ? this.types.get(tr.namedType) : undefined);
    if (!base || tr.elementRelationship === undefined || !base.map) return base;
    const rel = tr.elementRelationship === 'atomic' ? 'atomic' : 'separable';
    if (base.map.elementRelationship === rel) return base;
    const cacheKey = `${tr.namedType ?? ''}\u0000${rel}`;
    const cached = tr.namedType !== undefined ? this.overridden.get(cacheKey) : undefined;
    if (cached) return cached;
    const atom: Atom = { ...base, map: { ...base.map, elementRelationship: rel } };
    if (tr.namedType !== undefined) this.overridden.set(cacheKey, atom);
    return atom;
  }

  /** Map.FindField. */
  findField(m: MapType, name: string): StructField | undefined {
    let index = this.fieldIndex.get(m);
    if (!index) {
      index = new Map(m.fields.map((f) => [f.name, f]));
      this.fieldIndex.set(m, index);
    }
    return index.get(name);
  }
}

/** Whether a map type is the deduced one (reconciliation leaves it alone, as upstream). */
export function isUntypedDeducedMap(m: MapType): boolean {
  const t = m.elementType;
  if (!t || m.fields.length > 0) return false;
  if (t.namedType !== undefined) return t.namedType === untypedDeducedName;
  return t.inlined?.scalar === 'untyped';
}
