// JSON objects ↔ protobuf bytes, driven by the schema model (encoding: proto-encoder.ts): field numbers from proto/, the
// special JSON forms (Quantity, IntOrString, Time, MicroTime, RawExtension, FieldsV1), maps,
// int64, and inline (embedded) messages. Decoding applies omitempty: a scalar holding its zero
// value is left out of the JSON unless the field is a pointer field upstream.
import type protobuf from 'protobufjs';
import type { FieldSchema, MessageSchema, ValueType } from './schema-model.js';
import { formatDuration, formatTime } from './special-types.js';
import { encodeJson } from './proto-encoder.js';

type Json = Record<string, unknown>;

const isPlainObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Encodes a JSON object (already validated against the message) as protobuf bytes. */
export function encodeMessage(m: MessageSchema, obj: unknown): Uint8Array {
  return encodeJson(m, obj);
}

/** Decodes protobuf bytes of a message into its JSON form. */
export function decodeMessage(m: MessageSchema, bytes: Uint8Array): unknown {
  return fromProtoMessage(m, m.type.decode(bytes));
}

// ---- protobufjs message → JSON ----

const has = (msg: object, name: string): boolean => Object.prototype.hasOwnProperty.call(msg, name);

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'object' && v !== null && 'toNumber' in v) return (v as { toNumber(): number }).toNumber();
  return Number(v);
}

function fromProtoMessage(m: MessageSchema, msg: protobuf.Message): unknown {
  if (m.jsonType) return specialFromProto(m, msg);
  const out: Json = {};
  const rec = msg as unknown as Json;
  for (const f of m.fields) {
    if (!has(msg, f.name)) continue;
    const raw = rec[f.name];
    if (raw === null || raw === undefined) continue;
    if (f.inline && 'message' in f.value) {
      const inner = fromProtoMessage(f.value.message, raw as protobuf.Message);
      if (isPlainObject(inner)) Object.assign(out, inner);
      continue;
    }
    const v = fieldFromProto(f, raw);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}

function fieldFromProto(f: FieldSchema, raw: unknown): unknown {
  if (f.map) {
    const entries = Object.entries(raw as Json);
    if (entries.length === 0) return undefined;
    return Object.fromEntries(entries.map(([k, x]) => [k, valueFromProto(f.value, x, true)]));
  }
  if (f.repeated) {
    const list = raw as unknown[];
    if (list.length === 0) return undefined;
    return list.map((x) => valueFromProto(f.value, x, true));
  }
  const v = valueFromProto(f.value, raw, f.keepZero);
  return v;
}

function valueFromProto(t: ValueType, raw: unknown, keepZero: boolean): unknown {
  if ('message' in t) return fromProtoMessage(t.message, raw as protobuf.Message);
  switch (t.scalar) {
    case 'bytes': {
      const b = Buffer.from(raw as Uint8Array);
      return b.length === 0 && !keepZero ? undefined : b.toString('base64');
    }
    case 'int64':
    case 'uint64':
    case 'int32':
    case 'uint32':
    case 'double':
    case 'float': {
      const n = toNumber(raw);
      return n === 0 && !keepZero ? undefined : n;
    }
    case 'bool':
      return raw === false && !keepZero ? undefined : raw;
    default:
      return raw === '' && !keepZero ? undefined : raw;
  }
}

function specialFromProto(m: MessageSchema, msg: protobuf.Message): unknown {
  const rec = msg as unknown as Json;
  switch (m.jsonType) {
    case 'quantity':
      return has(msg, 'string') ? rec['string'] : undefined;
    case 'int-or-string':
      return toNumber(rec['type'] ?? 0) === 1 ? (rec['strVal'] ?? '') : toNumber(rec['intVal'] ?? 0);
    case 'time':
    case 'micro-time':
      // An empty message is the zero time, which JSON leaves out.
      if (!has(msg, 'seconds') && !has(msg, 'nanos')) return undefined;
      return formatTime(toNumber(rec['seconds'] ?? 0), toNumber(rec['nanos'] ?? 0), m.jsonType === 'micro-time');
    case 'duration':
      return formatDuration(toNumber(rec['duration'] ?? 0));
    case 'fields-v1':
    case 'raw': {
      const bytes = rec[m.jsonType === 'raw' ? 'raw' : 'Raw'] as Uint8Array | undefined;
      if (!bytes || bytes.length === 0) return undefined;
      try {
        return JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
      } catch {
        return undefined;
      }
    }
    default:
      return undefined;
  }
}
