// The shape upstream's objects always have because Go writes them from typed structs: a field
// Go always writes (./go-always-written.ts) that an object leaves out gets its zero value, an
// empty struct as `{}` (filled the same way, so `status: {loadBalancer: {}}` for a Service) or a
// scalar as 0, "" or false. Every object below is visited (list items and map values
// included), so a Container's `resources: {}` appears wherever a pod template is. What the
// client set is never changed, and filling twice changes nothing.
import type { FieldSchema, MessageSchema } from './schema-model.js';
import { goAlwaysWritten } from './go-always-written.js';

type Json = Record<string, unknown>;
const isPlainObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const prefix = 'orch.api.';

function alwaysWritten(m: MessageSchema): readonly string[] | undefined {
  return m.fullName.startsWith(prefix)
    ? goAlwaysWritten.get(m.fullName.slice(prefix.length))
    : undefined;
}

function zeroOf(f: FieldSchema): unknown {
  if ('message' in f.value) return {};
  switch (f.value.scalar) {
    case 'string':
    case 'bytes':
      return '';
    case 'bool':
      return false;
    default:
      return 0;
  }
}

/** Fills, in place, what Go would write of an object of message `m` that the object leaves out. */
export function fillGoZeroShape(m: MessageSchema, obj: unknown): void {
  if (isPlainObject(obj)) fillObject(m, obj);
}

function fillObject(m: MessageSchema, obj: Json): void {
  if (m.jsonType) return;
  for (const key of alwaysWritten(m) ?? []) {
    const f = m.jsonFields.get(key)?.field;
    if (f && obj[key] === undefined) obj[key] = zeroOf(f);
  }
  for (const [key, { field }] of m.jsonFields) {
    const v = obj[key];
    if (v === undefined || v === null || !('message' in field.value)) continue;
    const inner = field.value.message;
    if (inner.jsonType) continue;
    if (field.map) {
      if (isPlainObject(v)) for (const x of Object.values(v)) fillGoZeroShape(inner, x);
    } else if (field.repeated) {
      if (Array.isArray(v)) for (const x of v) fillGoZeroShape(inner, x);
    } else {
      fillGoZeroShape(inner, v);
    }
  }
}
