// OpenAPI (Swagger 2.0 style) definitions derived from the schema model: properties with the
// JSON names and descriptions of proto/, types and formats, defaults, required fields, and the merge
// markers (x-kubernetes-list-type, -list-map-keys, -map-type, -patch-strategy, -patch-merge-key).
// The OpenAPI v3 document converts them (references under #/components/schemas/).
import type { FieldSchema, MessageSchema, SchemaModel, ValueType } from './schema-model.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The definition name of a message: `io.orch.api.core.v1.Pod`, `io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta`. */
export function openApiDefinitionName(m: MessageSchema): string {
  const parts = m.fullName.split('.');
  const name = parts[parts.length - 1] ?? m.name;
  if (m.jsonType === 'quantity') return `io.orch.apimachinery.pkg.api.resource.${name}`;
  if (m.jsonType === 'int-or-string') return `io.orch.apimachinery.pkg.util.intstr.${name}`;
  if (m.fullName.startsWith('orch.api.meta.'))
    return `io.orch.apimachinery.pkg.apis.meta.${parts.slice(3).join('.')}`;
  if (m.fullName.startsWith('orch.api.runtime.')) return `io.orch.apimachinery.pkg.runtime.${name}`;
  return `io.${m.fullName}`;
}

const ref = (m: MessageSchema): JsonObject => ({
  $ref: `#/definitions/${openApiDefinitionName(m)}`,
});

function scalarSchema(t: ValueType): JsonObject {
  if (!('scalar' in t)) return ref(t.message);
  switch (t.scalar) {
    case 'bool':
      return { type: 'boolean' };
    case 'int32':
    case 'uint32':
      return { type: 'integer', format: 'int32' };
    case 'int64':
    case 'uint64':
      return { type: 'integer', format: 'int64' };
    case 'double':
      return { type: 'number', format: 'double' };
    case 'float':
      return { type: 'number', format: 'float' };
    case 'bytes':
      return { type: 'string', format: 'byte' };
    default:
      return { type: 'string' };
  }
}

function fieldSchema(f: FieldSchema): JsonObject {
  const s: JsonObject = {};
  if (f.description) s['description'] = f.description;
  const value = scalarSchema(f.value);
  if (f.map) {
    s['type'] = 'object';
    s['additionalProperties'] = value;
  } else if (f.repeated) {
    s['type'] = 'array';
    s['items'] = value;
  } else {
    Object.assign(s, value);
  }
  if (f.format && !('$ref' in s)) s['format'] = f.format;
  if (f.default !== undefined) s['default'] = f.default as Json;
  if (f.listType) s['x-kubernetes-list-type'] = f.listType;
  if (f.listMapKeys) s['x-kubernetes-list-map-keys'] = f.listMapKeys;
  if (f.mapType) s['x-kubernetes-map-type'] = f.mapType;
  if (f.patchMergeKey) s['x-kubernetes-patch-merge-key'] = f.patchMergeKey;
  if (f.patchStrategy) s['x-kubernetes-patch-strategy'] = f.patchStrategy;
  return s;
}

function specialSchema(m: MessageSchema): JsonObject {
  const s: JsonObject = m.description ? { description: m.description } : {};
  switch (m.jsonType) {
    case 'time':
    case 'micro-time':
      return { ...s, type: 'string', format: 'date-time' };
    case 'quantity':
    case 'duration':
      return { ...s, type: 'string' };
    case 'int-or-string':
      return { ...s, type: 'string', format: 'int-or-string' };
    case 'string-list':
      return { ...s, type: 'array', items: { type: 'string' } };
    default:
      return { ...s, type: 'object' };
  }
}

function messageSchema(
  m: MessageSchema,
  gvk?: { group: string; version: string; kind: string }
): JsonObject {
  if (m.jsonType) return specialSchema(m);
  const properties: JsonObject = {};
  if (gvk) {
    properties['apiVersion'] = {
      description:
        'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.',
      type: 'string',
    };
    properties['kind'] = {
      description:
        'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase.',
      type: 'string',
    };
  }
  const required: string[] = [];
  for (const [name, { field }] of m.jsonFields) {
    properties[name] = fieldSchema(field);
    if (field.required) required.push(name);
  }
  const sorted = Object.fromEntries(
    Object.entries(properties).sort(([a], [b]) => a.localeCompare(b))
  );
  const s: JsonObject = { type: 'object' };
  if (m.description) s['description'] = m.description;
  if (Object.keys(sorted).length > 0) s['properties'] = sorted;
  if (required.length > 0) s['required'] = required.sort();
  if (m.structType) s['x-kubernetes-map-type'] = m.structType;
  if (gvk)
    s['x-kubernetes-group-version-kind'] = [
      { group: gvk.group, kind: gvk.kind, version: gvk.version },
    ];
  return s;
}

/**
 * The definitions of the given kinds and of every message they reach, keyed by definition
 * name. `kinds` maps a message's full name to its group-version-kind (undefined for a message
 * that is no kind, such as ObjectMeta, wanted with what it reaches).
 */
export function openApiDefinitions(
  model: SchemaModel,
  kinds: Map<string, { group: string; version: string; kind: string } | undefined>
): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  const seen = new Set<string>();
  const visit = (m: MessageSchema): void => {
    if (seen.has(m.fullName)) return;
    seen.add(m.fullName);
    out[openApiDefinitionName(m)] = messageSchema(m, kinds.get(m.fullName));
    if (m.jsonType) return;
    for (const f of m.fields) if ('message' in f.value) visit(f.value.message);
  };
  for (const name of kinds.keys()) {
    const m = model.message(name);
    if (m) visit(m);
  }
  return out;
}
