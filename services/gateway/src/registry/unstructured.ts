// Reading API objects as untyped JSON, as strategies do until their kinds have generated types
// (k8s.io/apimachinery unstructured's Nested* helpers, each answering an empty value when the
// field is missing or of another type).
import type { ApiObject } from '@orch/apimachinery/meta';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const obj = (v: unknown): Json => (isObject(v) ? v : {});
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const objectAt = (o: unknown, key: string): Json =>
  isObject(o) && isObject(o[key]) ? o[key] : {};
export const listAt = (o: unknown, key: string): unknown[] =>
  isObject(o) && Array.isArray(o[key]) ? o[key] : [];
/** The spec of an object, created when missing (strategies write defaults into it). */
export const specOf = (o: ApiObject): Json => (isObject(o['spec']) ? o['spec'] : (o['spec'] = {}));
