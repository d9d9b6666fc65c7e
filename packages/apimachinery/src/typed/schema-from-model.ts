// The structured-merge-diff schema of the orch schema model (the counterpart of kube-openapi's
// schemaconv, which turns OpenAPI with x-kubernetes-* markers into smd types). Each message is
// a named struct type; a repeated field is a list: `list_type` atomic, set, or map keyed by
// `list_map_keys`; without a list type a legacy `patch_strategy` containing merge makes it
// associative keyed by `patch_merge_key` (a set when there is no key), otherwise atomic. A map
// field is a map, atomic with `map_type` atomic; `map_type` on a message field overrides the
// struct's relationship; a message with `struct_type` atomic is an atomic struct wherever it is
// used (upstream's +structType=atomic). Messages with a JSON form of their own are scalars (time, quantity,
// int-or-string...), lists (string-list) or the deduced type (raw, fields-v1).
import type { GroupVersionKind } from '../schema/index.js';
import type { FieldSchema, MessageSchema, SchemaModel, ValueType } from '../schema-model/index.js';
import type { JsonValue } from '../fieldpath/index.js';
import type { Atom, ListType, Scalar, StructField, TypeRef } from './schema.js';
import { Schema, deducedTypeRef } from './schema.js';

const cache = new WeakMap<SchemaModel, Schema>();

function scalarOf(t: string): Scalar {
  switch (t) {
    case 'string':
    case 'bytes':
      return 'string';
    case 'bool':
      return 'boolean';
    default:
      return 'numeric';
  }
}

function valueRef(v: ValueType): TypeRef {
  return 'scalar' in v
    ? { inlined: { scalar: scalarOf(v.scalar) } }
    : { namedType: v.message.fullName };
}

function listOf(f: FieldSchema): ListType {
  const elementType = valueRef(f.value);
  if (f.listType === 'atomic') return { elementType, elementRelationship: 'atomic', keys: [] };
  if (f.listType === 'set') return { elementType, elementRelationship: 'associative', keys: [] };
  if (f.listType === 'map')
    return {
      elementType,
      elementRelationship: 'associative',
      keys: f.listMapKeys ?? (f.patchMergeKey ? [f.patchMergeKey] : []),
    };
  const strategies = (f.patchStrategy ?? '').split(',').map((s) => s.trim());
  if (strategies.includes('merge'))
    return {
      elementType,
      elementRelationship: 'associative',
      keys: f.patchMergeKey ? [f.patchMergeKey] : [],
    };
  return { elementType, elementRelationship: 'atomic', keys: [] };
}

function fieldRef(f: FieldSchema): TypeRef {
  if (f.map)
    return {
      inlined: {
        map: {
          fields: [],
          elementType: valueRef(f.value),
          elementRelationship: f.mapType === 'atomic' ? 'atomic' : 'separable',
        },
      },
    };
  if (f.repeated) return { inlined: { list: listOf(f) } };
  const ref = valueRef(f.value);
  if (f.mapType && ref.namedType !== undefined)
    return {
      namedType: ref.namedType,
      elementRelationship: f.mapType === 'atomic' ? 'atomic' : 'separable',
    };
  return ref;
}

function structField(name: string, f: FieldSchema): StructField {
  return {
    name,
    type: fieldRef(f),
    ...(f.default !== undefined ? { default: f.default as JsonValue } : {}),
  };
}

function atomOf(m: MessageSchema, schema: Schema): Atom {
  switch (m.jsonType) {
    // A quantity is a string or a number (upstream's OpenAPI v3 oneOf, untyped for smd): `cpu: 1`.
    case 'int-or-string':
    case 'quantity':
      return { scalar: 'untyped' };
    case 'time':
    case 'micro-time':
    case 'duration':
      return { scalar: 'string' };
    case 'string-list':
      return {
        list: {
          elementType: { inlined: { scalar: 'string' } },
          elementRelationship: 'atomic',
          keys: [],
        },
      };
    case 'raw':
    case 'fields-v1':
      return schema.resolve(deducedTypeRef) as Atom;
    default: {
      const fields: StructField[] = [];
      for (const [name, { field }] of m.jsonFields) fields.push(structField(name, field));
      const elementRelationship = m.structType === 'atomic' ? 'atomic' : 'separable';
      return { map: { fields, elementRelationship } };
    }
  }
}

/** The smd schema of every message of a schema model (built once per model). */
export function schemaFromModel(model: SchemaModel): Schema {
  let schema = cache.get(model);
  if (schema) return schema;
  schema = new Schema();
  for (const m of model.allMessages()) schema.define(m.fullName, atomOf(m, schema));
  cache.set(model, schema);
  return schema;
}

const typeMetaFields: StructField[] = [
  { name: 'apiVersion', type: { inlined: { scalar: 'string' } } },
  { name: 'kind', type: { inlined: { scalar: 'string' } } },
];

/**
 * The root type of a kind: its message with apiVersion and kind (which the proto messages leave
 * to the envelope), or undefined when the model has no schema for it.
 */
export function kindTypeRef(
  model: SchemaModel,
  gvk: GroupVersionKind
): { schema: Schema; typeRef: TypeRef } | undefined {
  const kind = model.kind(gvk);
  if (!kind) return undefined;
  const schema = schemaFromModel(model);
  const name = `${kind.message.fullName}#kind`;
  if (!schema.has(name)) {
    const base = schema.resolve({ namedType: kind.message.fullName });
    const fields = base?.map?.fields ?? [];
    const extra = typeMetaFields.filter((t) => !fields.some((f) => f.name === t.name));
    schema.define(name, {
      map: { fields: [...extra, ...fields], elementRelationship: 'separable' },
    });
  }
  return { schema, typeRef: { namedType: name } };
}
