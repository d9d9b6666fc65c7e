// The structured-merge-diff type of a custom resource, from its CRD version's structural schema
// (upstream: the CR's TypeConverter, kube-openapi schemaconv over the OpenAPI v3 the builder
// makes of the schema): an object is a struct of its properties, its other keys typed by
// additionalProperties, or deduced under x-kubernetes-preserve-unknown-fields (none otherwise),
// atomic with x-kubernetes-map-type: atomic; an array is a list, associative by
// x-kubernetes-list-type set, or map keyed by x-kubernetes-list-map-keys, atomic otherwise (the
// default of CRD lists); x-kubernetes-int-or-string and untyped nodes are untyped scalars
// (deduced when they preserve unknown fields). apiVersion and kind are strings and metadata is
// ObjectMeta at the root and in x-kubernetes-embedded-resource objects, as the builder adds them.
import type { JSONSchemaProps } from '../apiextensions/index.js';
import type { JsonValue } from '../fieldpath/index.js';
import { builtinSchemaModel } from '../schema-model/index.js';
import type { Atom, ListType, Scalar, Schema, StructField, TypeRef } from './schema.js';
import { deducedTypeRef, untypedAtomicName } from './schema.js';
import { schemaFromModel } from './schema-from-model.js';

const objectMetaType = 'orch.api.meta.v1.ObjectMeta';
const rootName = '__customresource_root_';

const scalar = (s: Scalar): TypeRef => ({ inlined: { scalar: s } });

function scalarOf(type: string | undefined): Scalar | undefined {
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'numeric';
    case 'boolean':
      return 'boolean';
    default:
      return undefined;
  }
}

function listOf(s: JSONSchemaProps): ListType {
  const items = Array.isArray(s.items) ? s.items[0] : s.items;
  const elementType = items ? typeRefOf(items, false) : deducedTypeRef;
  switch (s['x-kubernetes-list-type']) {
    case 'map':
      return {
        elementType,
        elementRelationship: 'associative',
        keys: s['x-kubernetes-list-map-keys'] ?? [],
      };
    case 'set':
      return { elementType, elementRelationship: 'associative', keys: [] };
    default:
      return { elementType, elementRelationship: 'atomic', keys: [] };
  }
}

function structOf(s: JSONSchemaProps, kubeNative: boolean): Atom {
  const fields: StructField[] = [];
  for (const [name, prop] of Object.entries(s.properties ?? {}))
    fields.push({
      name,
      type: typeRefOf(prop, false),
      ...(prop.default !== undefined ? { default: prop.default as JsonValue } : {}),
    });
  if (kubeNative) {
    const native: StructField[] = [
      { name: 'apiVersion', type: scalar('string') },
      { name: 'kind', type: scalar('string') },
      { name: 'metadata', type: { namedType: objectMetaType } },
    ];
    for (const f of native) {
      const at = fields.findIndex((x) => x.name === f.name);
      if (at >= 0) fields[at] = f;
      else fields.push(f);
    }
  }
  const additional = s.additionalProperties;
  const elementType: TypeRef | undefined =
    typeof additional === 'object'
      ? typeRefOf(additional, false)
      : additional === true || s['x-kubernetes-preserve-unknown-fields'] === true
        ? deducedTypeRef
        : undefined;
  return {
    map: {
      fields,
      ...(elementType ? { elementType } : {}),
      elementRelationship: s['x-kubernetes-map-type'] === 'atomic' ? 'atomic' : 'separable',
    },
  };
}

function typeRefOf(s: JSONSchemaProps, root: boolean): TypeRef {
  if (s['x-kubernetes-int-or-string'] === true) return scalar('untyped');
  const kubeNative = root || s['x-kubernetes-embedded-resource'] === true;
  const type =
    s.type ?? (s.properties || s.additionalProperties ? 'object' : s.items ? 'array' : '');
  if (type === 'object') return { inlined: structOf(s, kubeNative) };
  if (type === 'array') return { inlined: { list: listOf(s) } };
  const sc = scalarOf(type);
  if (sc) return scalar(sc);
  return s['x-kubernetes-preserve-unknown-fields'] === true
    ? deducedTypeRef
    : { namedType: untypedAtomicName };
}

const cache = new WeakMap<JSONSchemaProps, { schema: Schema; typeRef: TypeRef }>();

/**
 * The smd schema and root type of a custom resource whose CRD version has this
 * openAPIV3Schema (a structural schema); built once per schema object.
 */
export function typedSchemaForCustomResource(schema: JSONSchemaProps): {
  schema: Schema;
  typeRef: TypeRef;
} {
  const cached = cache.get(schema);
  if (cached) return cached;
  const root = typeRefOf({ type: 'object', ...schema }, true);
  const atom = root.inlined ?? { map: { fields: [], elementRelationship: 'separable' as const } };
  const out = {
    schema: schemaFromModel(builtinSchemaModel()).extend([[rootName, atom]]),
    typeRef: { namedType: rootName },
  };
  cache.set(schema, out);
  return out;
}
