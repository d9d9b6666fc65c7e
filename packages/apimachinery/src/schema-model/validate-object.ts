// Field validation against the schema model: unknown fields (pruned from the object, so they
// never reach storage), wrongly typed values and missing required fields, each with its path
// as clients print it (`spec.containers[0].image`).
import type { FieldSchema, MessageSchema, ValueType } from './schema-model.js';
import { isQuantity, parseDuration, parseTime } from './special-types.js';
import { keyPath } from './parse-json-strict.js';

export interface FieldProblem {
  /** Path of the field, e.g. spec.containers[0].ports[0].containerPort. */
  field: string;
  reason: 'FieldValueRequired' | 'FieldValueInvalid';
  message: string;
}

export interface FieldValidationResult {
  /** Paths of fields the schema does not know; removed from the object. */
  unknown: string[];
  /** Wrong types and missing required fields. */
  problems: FieldProblem[];
}

type Json = Record<string, unknown>;
const isPlainObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const base64Padded = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** An unknown key with dots or slashes is written `[key]`, so the path names one field. */
const join = keyPath;
const typeName = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;

/**
 * Validates a top-level object (which may also carry apiVersion and kind) against its message,
 * pruning unknown fields and null values in place.
 */
export function validateObject(m: MessageSchema, obj: unknown): FieldValidationResult {
  const result: FieldValidationResult = { unknown: [], problems: [] };
  if (!isPlainObject(obj)) {
    result.problems.push({
      field: '',
      reason: 'FieldValueInvalid',
      message: `expected object, got ${typeName(obj)}`,
    });
    return result;
  }
  for (const key of ['apiVersion', 'kind']) {
    const v = obj[key];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      result.problems.push({
        field: key,
        reason: 'FieldValueInvalid',
        message: `expected string, got ${typeName(v)}`,
      });
    }
  }
  walkMessage(m, obj, '', result, new Set(['apiVersion', 'kind']));
  return result;
}

/**
 * Go's omitempty, as the binary codec applies it: an empty map or list, and a scalar at its zero
 * value in a field that does not keep zeros, are left out, so JSON, YAML and binary agree.
 */
function isOmitted(f: FieldSchema, v: unknown): boolean {
  if (f.map) {
    return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
  }
  if (f.repeated) return Array.isArray(v) && v.length === 0;
  return 'scalar' in f.value && !f.keepZero && (v === '' || v === 0 || v === false);
}

function walkMessage(
  m: MessageSchema,
  obj: Json,
  path: string,
  r: FieldValidationResult,
  extra?: Set<string>
): void {
  for (const key of Object.keys(obj)) {
    if (extra?.has(key)) continue;
    const jf = m.jsonFields.get(key);
    if (!jf) {
      r.unknown.push(join(path, key));
      delete obj[key];
      continue;
    }
    const v = obj[key];
    if (v === null) {
      delete obj[key];
      continue;
    }
    walkField(jf.field, v, join(path, key), r, (nv) => (obj[key] = nv));
    if (isOmitted(jf.field, v)) delete obj[key];
  }
  for (const [key, jf] of m.jsonFields) {
    if (jf.field.required && obj[key] === undefined) {
      r.problems.push({
        field: join(path, key),
        reason: 'FieldValueRequired',
        message: 'Required value',
      });
    }
  }
}

/** `set` replaces the value where it stands, for values stored in their canonical form. */
type SetValue = (value: unknown) => void;

function walkField(
  f: FieldSchema,
  v: unknown,
  path: string,
  r: FieldValidationResult,
  set: SetValue
): void {
  if (f.map) {
    if (!isPlainObject(v)) {
      r.problems.push({
        field: path,
        reason: 'FieldValueInvalid',
        message: `expected object, got ${typeName(v)}`,
      });
      return;
    }
    for (const [k, x] of Object.entries(v)) {
      walkValue(f.value, x, `${path}[${k}]`, r, (nv) => (v[k] = nv));
    }
    return;
  }
  if (f.repeated) {
    if (!Array.isArray(v)) {
      r.problems.push({
        field: path,
        reason: 'FieldValueInvalid',
        message: `expected array, got ${typeName(v)}`,
      });
      return;
    }
    v.forEach((x, i) => walkValue(f.value, x, `${path}[${i}]`, r, (nv) => (v[i] = nv)));
    return;
  }
  walkValue(f.value, v, path, r, set);
}

function walkValue(
  t: ValueType,
  v: unknown,
  path: string,
  r: FieldValidationResult,
  set: SetValue
): void {
  const bad = (expected: string): void =>
    void r.problems.push({
      field: path,
      reason: 'FieldValueInvalid',
      message: `expected ${expected}, got ${typeName(v)}`,
    });
  if ('scalar' in t) {
    switch (t.scalar) {
      case 'string':
        if (typeof v !== 'string') bad('string');
        return;
      case 'bool':
        if (typeof v !== 'boolean') bad('boolean');
        return;
      case 'int32':
        if (!Number.isInteger(v) || (v as number) < -2147483648 || (v as number) > 2147483647)
          bad('int32');
        return;
      case 'uint32':
        if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 4294967295) bad('uint32');
        return;
      case 'int64':
        if (!Number.isSafeInteger(v)) bad(t.scalar);
        return;
      case 'uint64':
        if (!Number.isSafeInteger(v) || (v as number) < 0) bad(t.scalar);
        return;
      case 'double':
      case 'float':
        if (typeof v !== 'number' || !Number.isFinite(v)) bad('number');
        return;
      case 'bytes':
        // Padded standard base64, as Go's encoding/json decodes []byte: "iVBORw" is refused.
        if (typeof v !== 'string' || !base64Padded.test(v)) bad('base64 string');
        return;
    }
  }
  const m = t.message;
  switch (m.jsonType) {
    case 'quantity':
      if (!(
        (typeof v === 'string' && isQuantity(v)) ||
        (typeof v === 'number' && Number.isFinite(v))
      )) {
        r.problems.push({
          field: path,
          reason: 'FieldValueInvalid',
          message: `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
        });
      } else if (typeof v === 'number') {
        // A Quantity is a string on the wire (Go's Quantity marshals to one): a number is kept
        // as the string the binary form carries, so JSON, YAML and binary read back the same.
        set(String(v));
      }
      return;
    case 'int-or-string':
      // IntOrString holds an int32 (Go refuses a larger number when it decodes one); a number
      // past it would not survive the binary form.
      if (typeof v === 'string') return;
      if (!Number.isInteger(v)) bad('integer or string');
      else if ((v as number) < -2147483648 || (v as number) > 2147483647) bad('int32 or string');
      return;
    case 'time':
    case 'micro-time':
      if (typeof v !== 'string' || !parseTime(v)) bad('RFC 3339 timestamp');
      return;
    case 'duration':
      if (typeof v !== 'string' || parseDuration(v) === undefined) bad('duration');
      return;
    case 'fields-v1':
      if (!isPlainObject(v)) bad('object');
      return;
    case 'string-list':
      if (!Array.isArray(v)) bad('array');
      else
        v.forEach((x, i) =>
          walkValue({ scalar: 'string' }, x, `${path}[${i}]`, r, (nv) => (v[i] = nv))
        );
      return;
    case 'raw':
      return;
    default:
      if (!isPlainObject(v)) {
        bad('object');
        return;
      }
      walkMessage(m, v, path, r);
  }
}
