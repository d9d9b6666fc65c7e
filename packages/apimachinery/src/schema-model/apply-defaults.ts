// Defaulting from the schema model, as decoding a request does upstream (the defaulter-gen
// SetObjectDefaults_* functions): at every nesting level, inside list items and map values,
// each object first takes the default_value of its fields that are unset, then the code
// defaulter registered for its message, then its children are visited. A field counts as unset
// when absent, or (without keep_zero: a non-pointer field upstream) when it holds its zero value.
// Applying defaults twice changes nothing, and a value the client set is never replaced.
import type { FieldSchema, MessageSchema } from './schema-model.js';
import { builtinDefaulters } from '../apis/index.js';
import { fillAlwaysWritten } from './go-zero-shape.js';
import type { Defaulters } from '../apis/index.js';

type Json = Record<string, unknown>;
const isPlainObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function isUnset(f: FieldSchema, v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (f.keepZero || f.repeated || f.map) return false;
  return v === '' || v === 0 || v === false;
}

/**
 * Sets the defaults of an object of message `m` (a top-level object may carry apiVersion and
 * kind), in place. With `goShape`, each object visited first gets the fields Go always writes
 * (./go-zero-shape.ts), so that the structs Go would have decoded are defaulted too.
 */
export function applyDefaults(
  m: MessageSchema,
  obj: unknown,
  defaulters: Defaulters = builtinDefaulters,
  opts: { goShape?: boolean } = {}
): void {
  if (isPlainObject(obj)) defaultObject(m, obj, defaulters, opts.goShape === true);
}

function defaultObject(m: MessageSchema, obj: Json, defaulters: Defaulters, shape: boolean): void {
  if (m.jsonType) return;
  if (shape) fillAlwaysWritten(m, obj);
  for (const [key, { field }] of m.jsonFields) {
    // A default that is the zero value of a field without keep_zero is Go's zero, which
    // omitempty leaves out (ReplicationController's minReadySeconds): nothing to set.
    if (field.default !== undefined && isUnset(field, obj[key]) && !isUnset(field, field.default))
      obj[key] = structuredClone(field.default);
  }
  runDefaulters(m, obj, defaulters);
  for (const [key, { field }] of m.jsonFields) {
    const v = obj[key];
    if (
      v === undefined ||
      v === null ||
      !('message' in field.value) ||
      field.value.message.jsonType
    )
      continue;
    const inner = field.value.message;
    if (field.map) {
      if (isPlainObject(v))
        for (const x of Object.values(v))
          if (isPlainObject(x)) defaultObject(inner, x, defaulters, shape);
    } else if (field.repeated) {
      if (Array.isArray(v))
        for (const x of v) if (isPlainObject(x)) defaultObject(inner, x, defaulters, shape);
    } else if (isPlainObject(v)) {
      defaultObject(inner, v, defaulters, shape);
    }
  }
}

/** The defaulter of the message, and of the messages inlined into it (their fields are the object's own). */
function runDefaulters(m: MessageSchema, obj: Json, defaulters: Defaulters): void {
  defaulters.get(m.fullName)?.(obj);
  for (const f of m.fields)
    if (f.inline && 'message' in f.value) runDefaulters(f.value.message, obj, defaulters);
}
