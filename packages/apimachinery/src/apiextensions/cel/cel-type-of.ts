// The CEL type of a CRD schema node and the CEL value of an object under it
// (k8s.io/apiserver/pkg/cel/common/schemas.go SchemaDeclType, valuesunstructured.go
// UnstructuredToVal, escaping.go): objects with properties are object types with those fields,
// additionalProperties maps, integer int, number double, byte bytes, date/date-time timestamp,
// duration duration, int-or-string and preserve-unknown-fields dyn, embedded resources objects
// with apiVersion, kind and metadata.name/generateName; list items and map values keep their
// schemas' types, so a rule over elements is checked against the element's fields. Property
// names are escaped as upstream escapes them. Lists with x-kubernetes-list-type set or map are
// marked so that `==` and `+` follow their list type (cel/typed-lists.ts).
import { Optional } from '@marcbachmann/cel-js';

import { celReservedWords, compileExpression, toCelValue, withListType } from '../../cel/index.js';
import type { CelObjectType } from '../../cel/index.js';
import type { JSONSchemaProps } from '../types.js';

const ACCESSIBLE = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/u;
const ESCAPES: Record<string, string> = {
  __: '__underscores__',
  '.': '__dot__',
  '-': '__dash__',
  '/': '__slash__',
};

/**
 * The name a property has in CEL (upstream cel.Escape): `__{keyword}__` for a reserved word,
 * `__underscores__`, `__dot__`, `__dash__`, `__slash__` for `__`, `.`, `-`, `/`; undefined when
 * the name is not accessible from CEL (it does not match `[a-zA-Z_.-/][a-zA-Z0-9_.-/]*`).
 */
export function escapeCelPropertyName(name: string): string | undefined {
  if (celReservedWords.has(name)) return `__${name}__`;
  if (!ACCESSIBLE.test(name)) return undefined;
  return name.replace(/__|[./-]/gu, (m) => ESCAPES[m] ?? m);
}

/**
 * The CEL type of a schema node (upstream DeclType): a type name (`int`, `list<string>`,
 * `dyn`, the name of an object type) and the object types it names, each before the types
 * that name it. Object types are named by their place under the variable: `$self`,
 * `$self.spec`, `$self.items.@idx` for a list's items, `$self.labels.@elem` for a map's values.
 */
export interface CelDeclType {
  readonly type: string;
  readonly objectTypes: readonly CelObjectType[];
}

/** The fields an embedded resource always has (apiVersion, kind, metadata.name/generateName). */
const EMBEDDED_METADATA: JSONSchemaProps = {
  type: 'object',
  properties: { name: { type: 'string' }, generateName: { type: 'string' } },
};

/** The type name of `schema` at `path`; object types are appended to `out`. */
function declare(schema: JSONSchemaProps | undefined, path: string, out: CelObjectType[]): string {
  if (!schema) return 'dyn';
  if (schema['x-kubernetes-int-or-string']) return 'dyn';
  const embedded = schema['x-kubernetes-embedded-resource'] === true;
  switch (schema.type) {
    case 'integer':
      return 'int';
    case 'number':
      return 'double';
    case 'boolean':
      return 'bool';
    case 'string':
      switch (schema.format) {
        case 'byte':
          return 'bytes';
        case 'date':
        case 'date-time':
        case 'datetime':
          return 'google.protobuf.Timestamp';
        case 'duration':
          return 'google.protobuf.Duration';
        default:
          return 'string';
      }
    case 'array': {
      const items = Array.isArray(schema.items) ? undefined : schema.items;
      return `list<${declare(items, `${path}.@idx`, out)}>`;
    }
    case 'object': {
      const ap = schema.additionalProperties;
      if (ap !== undefined && ap !== false && !schema.properties) {
        return `map<string, ${declare(ap === true ? undefined : ap, `${path}.@elem`, out)}>`;
      }
      const hasProperties = Object.keys(schema.properties ?? {}).length > 0;
      if (schema['x-kubernetes-preserve-unknown-fields']) return 'dyn';
      if (!hasProperties && !embedded) return 'dyn';
      const fields: Record<string, string> = {};
      if (embedded) {
        fields.apiVersion = 'string';
        fields.kind = 'string';
        fields.metadata = declare(EMBEDDED_METADATA, `${path}.metadata`, out);
      }
      for (const [name, prop] of Object.entries(schema.properties ?? {})) {
        const escaped = escapeCelPropertyName(name);
        if (escaped !== undefined) fields[escaped] = declare(prop, `${path}.${escaped}`, out);
      }
      out.push({ name: path, fields });
      return path;
    }
    default:
      return 'dyn';
  }
}

/**
 * The CEL type of `schema` for a variable `variable` (the spec's type-mapping table; upstream
 * SchemaDeclType): list items and map values keep their declared types, objects among them.
 */
export function celTypeOf(schema: JSONSchemaProps | undefined, variable = 'self'): CelDeclType {
  const objectTypes: CelObjectType[] = [];
  const type = declare(schema, `$${variable}`, objectTypes);
  return { type, objectTypes };
}

/** A short name of the type of `schema`'s values, as errors print it ("object", "array", ...). */
export function schemaTypeName(schema: JSONSchemaProps | undefined): string {
  return schema?.type ?? '';
}

let converters: { timestamp(s: string): unknown; duration(s: string): unknown } | undefined;

/** Timestamps and durations as the CEL engine represents them. */
function celConverters(): NonNullable<typeof converters> {
  if (!converters) {
    const vars = [{ name: 's', type: 'string' }];
    const ts = compileExpression('timestamp(s)', vars).compiled;
    const du = compileExpression('duration(s)', vars).compiled;
    if (!ts || !du) throw new Error('the CEL engine has no timestamp or duration');
    converters = {
      timestamp: (s) => ts.evaluate({ s }),
      duration: (s) => du.evaluate({ s }),
    };
  }
  return converters;
}

function decodeBase64(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, 'base64'));
}

/**
 * The CEL value of `value` under `schema` (upstream UnstructuredToVal): property names escaped
 * (inaccessible ones dropped), integers int, numbers double, byte/date/date-time/duration
 * strings bytes/timestamp/duration. A value the schema does not describe is converted as JSON.
 */
export function toCelValueForSchema(schema: JSONSchemaProps | undefined, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (!schema || schema['x-kubernetes-int-or-string']) return toCelValue(value);
  switch (schema.type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
    case 'number':
      return value;
    case 'string':
      if (typeof value !== 'string') return value;
      try {
        switch (schema.format) {
          case 'byte':
            return decodeBase64(value);
          case 'date':
            return celConverters().timestamp(`${value}T00:00:00Z`);
          case 'date-time':
          case 'datetime':
            return celConverters().timestamp(value);
          case 'duration':
            return celConverters().duration(value);
          default:
            return value;
        }
      } catch {
        return value;
      }
    case 'array': {
      if (!Array.isArray(value)) return toCelValue(value);
      const items = Array.isArray(schema.items) ? undefined : schema.items;
      const list = value.map((v) => toCelValueForSchema(items, v));
      switch (schema['x-kubernetes-list-type']) {
        case 'set':
          return withListType(list, { type: 'set' });
        case 'map':
          return withListType(list, {
            type: 'map',
            // Upstream escapeKeyProps: a name that cannot be escaped is kept as it is.
            keys: (schema['x-kubernetes-list-map-keys'] ?? []).map(
              (k) => escapeCelPropertyName(k) ?? k
            ),
          });
        default:
          return list;
      }
    }
    case 'object': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return toCelValue(value);
      }
      const ap = schema.additionalProperties;
      const out: Record<string, unknown> = {};
      const props = schema.properties ?? {};
      const isMap = ap !== undefined && ap !== false && !schema.properties;
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (v === undefined) continue;
        if (isMap) {
          out[k] = toCelValueForSchema(ap === true ? undefined : ap, v);
          continue;
        }
        const name = escapeCelPropertyName(k);
        if (name === undefined) continue;
        out[name] = toCelValueForSchema(props[k], v);
      }
      return out;
    }
    default:
      return toCelValue(value);
  }
}

/** `oldSelf` of an optionalOldSelf rule: the old value, or none on create. */
export function optionalOf(value: unknown): unknown {
  return value === undefined ? Optional.none() : Optional.of(value);
}
