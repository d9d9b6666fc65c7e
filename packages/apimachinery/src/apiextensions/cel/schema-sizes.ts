// The worst-case sizes of the values a CRD schema admits (k8s.io/apiserver/pkg/cel/common/
// schemas.go estimateMaxStringLengthPerRequest, estimateMaxArrayItemsFromMinSize,
// estimateMaxAdditionalPropertiesFromMinSize, and apiextensions' CELSchemaContext
// MaxCardinality): maxLength/maxItems/maxProperties where the schema sets them, otherwise the
// most a request of the largest allowed size could hold. They feed the cost estimate of rules.
import type { CelSizeModel } from '../../cel/index.js';
import type { JSONSchemaProps } from '../types.js';

import { escapeCelPropertyName } from './cel-type-of.js';

/** The largest request body the server accepts (upstream maxRequestSizeBytes, 3 MiB). */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

const itemsOf = (s: JSONSchemaProps): JSONSchemaProps | undefined =>
  Array.isArray(s.items) ? undefined : s.items;

const valuesOf = (s: JSONSchemaProps): JSONSchemaProps | undefined => {
  const ap = s.additionalProperties;
  return ap === undefined || typeof ap === 'boolean' ? undefined : ap;
};

const isMapSchema = (s: JSONSchemaProps): boolean =>
  s.type === 'object' &&
  s.additionalProperties !== undefined &&
  s.additionalProperties !== false &&
  !s.properties;

/** The fewest bytes a serialized value of `schema` takes (upstream minSerializedSize). */
export function minSerializedSize(schema: JSONSchemaProps | undefined): number {
  if (!schema) return 1;
  if (schema['x-kubernetes-int-or-string']) return 1;
  switch (schema.type) {
    case 'boolean':
      return 4; // true
    case 'integer':
    case 'number':
      return 1; // 0
    case 'string':
      switch (schema.format) {
        case 'date':
          return 12; // "2000-01-01"
        case 'date-time':
        case 'datetime':
          return 21; // "2000-01-01T01:01:01"
        case 'duration':
          return 4; // "0s"
        default:
          return 2 + (schema.minLength ?? 0); // ""
      }
    case 'array':
    case 'object':
      return 2; // [] or {}
    default:
      return 1;
  }
}

/**
 * The largest size of a value of `schema`: characters of a string, items of a list, properties
 * of a map or object; undefined for scalars.
 */
export function maxSizeOf(schema: JSONSchemaProps | undefined): number | undefined {
  if (!schema) return MAX_REQUEST_SIZE_BYTES - 2;
  if (schema['x-kubernetes-int-or-string']) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (schema.type) {
    case 'string':
      if (schema.maxLength !== undefined) return schema.maxLength;
      switch (schema.format) {
        case 'date':
          return 10;
        case 'date-time':
        case 'datetime':
          return 32;
        default:
          return MAX_REQUEST_SIZE_BYTES - 2;
      }
    case 'array':
      return (
        schema.maxItems ??
        Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(itemsOf(schema)) + 1))
      );
    case 'object': {
      if (schema.maxProperties !== undefined) return schema.maxProperties;
      if (isMapSchema(schema)) {
        // "k":v, at least: two quotes, a colon, a comma and the value.
        return Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (4 + minSerializedSize(valuesOf(schema))));
      }
      if (schema.properties) return Object.keys(schema.properties).length;
      return Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / 5);
    }
    case 'integer':
    case 'number':
    case 'boolean':
      return undefined;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2;
  }
}

/**
 * The size of a map's keys as upstream estimates it: its sizeEstimator follows `@keys` to the
 * map's KeyType, StringType, whose MaxElements is 0 (apiextensions-apiserver
 * pkg/apiserver/schema/cel/compilation.go EstimateSize, apiserver pkg/cel/types.go StringType).
 * Published CRDs count on it: Gateway API's `key.matches(...)` over infrastructure labels.
 */
const mapKey: JSONSchemaProps = { type: 'string', maxLength: 0 };

/** A size handle: a schema node, or `unknown` for a value no schema describes. */
type Handle = JSONSchemaProps | 'unknown';

/**
 * The size model of rules on `schema`: `self` and `oldSelf` are values of `schema`; fields,
 * elements and keys follow properties (by their CEL names), items and additionalProperties.
 */
export function schemaSizeModel(schema: JSONSchemaProps): CelSizeModel {
  const node = (h: unknown): JSONSchemaProps | undefined =>
    h === 'unknown' || h === undefined ? undefined : (h as JSONSchemaProps);
  return {
    variable: (name) => (name === 'self' || name === 'oldSelf' ? schema : undefined),
    field(h, name) {
      const s = node(h);
      if (!s) return 'unknown';
      if (isMapSchema(s)) return valuesOf(s) ?? 'unknown';
      for (const [prop, sub] of Object.entries(s.properties ?? {})) {
        if (escapeCelPropertyName(prop) === name) return sub;
      }
      if (s['x-kubernetes-embedded-resource']) {
        if (name === 'metadata')
          return {
            type: 'object',
            properties: { name: { type: 'string' }, generateName: { type: 'string' } },
          };
        if (name === 'apiVersion' || name === 'kind') return { type: 'string' };
      }
      return 'unknown';
    },
    element(h) {
      const s = node(h);
      if (!s) return 'unknown';
      if (s.type === 'array') return itemsOf(s) ?? 'unknown';
      if (s.type === 'object') return valuesOf(s) ?? 'unknown';
      return 'unknown';
    },
    key(h) {
      const s = node(h);
      if (s && s.type === 'object') return mapKey satisfies Handle;
      return undefined;
    },
    maxSize: (h) => maxSizeOf(node(h)),
  };
}

/**
 * How many values of a child node one object may hold at most: the parent's cardinality times
 * the list's maxItems or map's maxProperties (estimated when unset); properties of objects keep
 * their parent's.
 */
export function childCardinality(parent: number, container: JSONSchemaProps): number {
  return parent * (maxSizeOf(container) ?? 1);
}
