// Schema defaults applied in place, then the nulls nothing may hold dropped
// (apiextensions-apiserver pkg/apiserver/schema/defaulting algorithm.go Default and
// prunenulls.go PruneNonNullableNullsWithoutDefaults). Run on writes and on reads from storage.
import type { JSONSchemaProps } from '../types.js';
import {
  additionalPropertiesOf,
  deepCopyJson,
  isJsonObject,
  itemsOf,
  propertyOf,
} from './json-object.js';

/** Sets every default of `schema` that `obj` lacks, then removes nulls of non-nullable fields. */
export function applyDefaults(obj: unknown, schema: JSONSchemaProps): void {
  defaultValue(obj, schema);
  pruneNonNullableNullsWithoutDefaults(obj, schema);
}

function isNonNullableNull(x: unknown, s: JSONSchemaProps | undefined): s is JSONSchemaProps {
  return x === null && s !== undefined && !s.nullable && s.default !== undefined;
}

function defaultValue(x: unknown, s: JSONSchemaProps | undefined): void {
  if (!s) return;
  if (isJsonObject(x)) {
    for (const [k, prop] of Object.entries(s.properties ?? {})) {
      if (prop.default === undefined) continue;
      if (!Object.prototype.hasOwnProperty.call(x, k) || isNonNullableNull(x[k], prop)) {
        x[k] = deepCopyJson(prop.default);
      }
    }
    const additional = additionalPropertiesOf(s);
    for (const k of Object.keys(x)) {
      const prop = propertyOf(s, k);
      if (prop) {
        defaultValue(x[k], prop);
      } else if (s.additionalProperties !== undefined) {
        if (isNonNullableNull(x[k], additional)) x[k] = deepCopyJson(additional!.default);
        defaultValue(x[k], additional);
      }
    }
  } else if (Array.isArray(x)) {
    const items = itemsOf(s);
    for (let i = 0; i < x.length; i++) {
      if (isNonNullableNull(x[i], items)) x[i] = deepCopyJson(items!.default);
      defaultValue(x[i], items);
    }
  }
}

function schemaForField(k: string, s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  if (!s) return undefined;
  return propertyOf(s, k) ?? additionalPropertiesOf(s);
}

function pruneNonNullableNullsWithoutDefaults(x: unknown, s: JSONSchemaProps | undefined): void {
  if (isJsonObject(x)) {
    for (const k of Object.keys(x)) {
      const fs = schemaForField(k, s);
      if (x[k] === null && fs !== undefined && !fs.nullable && fs.default === undefined) {
        delete x[k];
      } else {
        pruneNonNullableNullsWithoutDefaults(x[k], fs);
      }
    }
  } else if (Array.isArray(x)) {
    const items = s ? itemsOf(s) : undefined;
    for (const v of x) pruneNonNullableNullsWithoutDefaults(v, items);
  }
}
