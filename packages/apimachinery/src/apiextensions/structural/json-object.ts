// Helpers over decoded JSON values shared by pruning, defaulting and value validation.
import type { JSONSchemaProps } from '../types.js';

export type JsonObject = Record<string, unknown>;

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The single-schema form of `items` (a list of schemas is not structural). */
export function itemsOf(s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  return s && isJsonObject(s.items) ? (s.items as JSONSchemaProps) : undefined;
}

/** The schema form of `additionalProperties`; undefined for a boolean or when absent. */
export function additionalPropertiesOf(
  s: JSONSchemaProps | undefined
): JSONSchemaProps | undefined {
  return s && isJsonObject(s.additionalProperties)
    ? (s.additionalProperties as JSONSchemaProps)
    : undefined;
}

/** A field of `s.properties`, own properties only. */
export function propertyOf(s: JSONSchemaProps | undefined, k: string): JSONSchemaProps | undefined {
  if (!s?.properties || !Object.prototype.hasOwnProperty.call(s.properties, k)) return undefined;
  return s.properties[k];
}

/** runtime.DeepCopyJSONValue. */
export function deepCopyJson<T>(v: T): T {
  return v === undefined ? v : (structuredClone(v) as T);
}
