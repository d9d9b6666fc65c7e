// Protobuf bytes → JSON objects directly, driven by the schema model (protobufjs' Reader for the
// wire primitives): no intermediate message objects. Applies omitempty (a scalar holding its
// zero value is left out unless the field keeps zero values), accepts packed and unpacked
// repeated scalars, skips unknown fields, and rejects a field whose wire type does not match.
import protobuf from 'protobufjs';
import type { FieldSchema, MessageSchema, ValueType } from './schema-model.js';
import { formatDuration, formatTime } from './special-types.js';
import { WIRE_LEN, WIRE_VARINT, scalarWire } from './wire.js';

type Json = Record<string, unknown>;
type Reader = protobuf.Reader;

const byNumberCache = new WeakMap<MessageSchema, Map<number, FieldSchema>>();

function fieldsByNumber(m: MessageSchema): Map<number, FieldSchema> {
  let map = byNumberCache.get(m);
  if (!map) {
    map = new Map(m.fields.map((f) => [f.number, f]));
    byNumberCache.set(m, map);
  }
  return map;
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'object' && v !== null && 'toNumber' in v)
    return (v as { toNumber(): number }).toNumber();
  return Number(v);
}

function readScalar(r: Reader, scalar: string): unknown {
  switch (scalar) {
    case 'string':
      return r.string();
    case 'bytes':
      return Buffer.from(r.bytes()).toString('base64');
    case 'bool':
      return r.bool();
    case 'int32':
      return r.int32();
    case 'uint32':
      return r.uint32();
    case 'int64':
      return toNumber(r.int64());
    case 'uint64':
      return toNumber(r.uint64());
    case 'double':
      return r.double();
    case 'float':
      return r.float();
    default:
      throw new Error(`unsupported scalar ${scalar}`);
  }
}

function isZero(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

function expectWire(f: FieldSchema, got: number, want: number): void {
  if (got !== want)
    throw new Error(`field ${f.name} (${f.number}) has wire type ${got}, expected ${want}`);
}

/** Decodes the protobuf bytes of a message into its JSON form. */
export function decodeMessage(m: MessageSchema, bytes: Uint8Array): unknown {
  const r = protobuf.Reader.create(bytes);
  return readMessage(m, r, bytes.length);
}

function readMessage(m: MessageSchema, r: Reader, end: number): unknown {
  if (m.jsonType) return readSpecial(m, r, end);
  const out: Json = {};
  readInto(m, r, end, out);
  return out;
}

function readValue(
  f: FieldSchema,
  t: ValueType,
  r: Reader,
  wire: number,
  keepZero: boolean
): unknown {
  if ('scalar' in t) {
    expectWire(f, wire, scalarWire(t.scalar));
    const v = readScalar(r, t.scalar);
    return !keepZero && isZero(v) ? undefined : v;
  }
  expectWire(f, wire, WIRE_LEN);
  const len = r.uint32();
  return readMessage(t.message, r, r.pos + len);
}

function readInto(m: MessageSchema, r: Reader, end: number, out: Json): void {
  const byNumber = fieldsByNumber(m);
  while (r.pos < end) {
    const tag = r.uint32();
    const wire = tag & 7;
    const f = byNumber.get(tag >>> 3);
    if (!f) {
      r.skipType(wire);
      continue;
    }
    if (f.inline && 'message' in f.value) {
      expectWire(f, wire, WIRE_LEN);
      const len = r.uint32();
      readInto(f.value.message, r, r.pos + len, out);
      continue;
    }
    if (f.map) {
      expectWire(f, wire, WIRE_LEN);
      const entryEnd = r.pos + r.uint32();
      let key = '';
      let value: unknown;
      while (r.pos < entryEnd) {
        const t = r.uint32();
        if (t >>> 3 === 1) key = r.string();
        else if (t >>> 3 === 2) value = readValue(f, f.value, r, t & 7, true);
        else r.skipType(t & 7);
      }
      const map = (out[f.name] ??= {}) as Json;
      map[key] =
        value ??
        ('scalar' in f.value
          ? f.value.scalar === 'string' || f.value.scalar === 'bytes'
            ? ''
            : f.value.scalar === 'bool'
              ? false
              : 0
          : {});
      continue;
    }
    if (f.repeated) {
      const list = (out[f.name] ??= []) as unknown[];
      if ('scalar' in f.value && wire === WIRE_LEN && scalarWire(f.value.scalar) !== WIRE_LEN) {
        // Packed scalars.
        const packedEnd = r.pos + r.uint32();
        while (r.pos < packedEnd) list.push(readScalar(r, f.value.scalar));
        continue;
      }
      const v = readValue(f, f.value, r, wire, true);
      if (v !== undefined) list.push(v);
      continue;
    }
    const v = readValue(f, f.value, r, wire, f.keepZero);
    if (v === undefined) delete out[f.name];
    else out[f.name] = v;
  }
  if (r.pos !== end) throw new Error(`message ${m.name} overruns its length`);
}

function readSpecial(m: MessageSchema, r: Reader, end: number): unknown {
  if (m.jsonType === 'string-list') return readStringList(m, r, end);
  const fields = new Map<number, unknown>();
  while (r.pos < end) {
    const tag = r.uint32();
    const n = tag >>> 3;
    const wire = tag & 7;
    if (wire === WIRE_LEN) {
      const bytes = r.bytes();
      fields.set(n, bytes);
    } else if (wire === WIRE_VARINT) {
      fields.set(n, toNumber(r.int64()));
    } else {
      r.skipType(wire);
    }
  }
  if (r.pos !== end) throw new Error(`message ${m.name} overruns its length`);
  const str = (n: number): string | undefined => {
    const b = fields.get(n);
    return b instanceof Uint8Array ? Buffer.from(b).toString('utf8') : undefined;
  };
  const num = (n: number): number =>
    typeof fields.get(n) === 'number' ? (fields.get(n) as number) : 0;
  switch (m.jsonType) {
    case 'quantity':
      return str(1);
    case 'int-or-string':
      return num(1) === 1 ? (str(3) ?? '') : num(2);
    case 'time':
    case 'micro-time':
      // An empty message is the zero time, which JSON leaves out.
      if (!fields.has(1) && !fields.has(2)) return undefined;
      return formatTime(num(1), num(2), m.jsonType === 'micro-time');
    case 'duration':
      return formatDuration(num(1));
    default: {
      const text = str(1);
      if (text === undefined || text === '') return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return undefined;
      }
    }
  }
}

/** A string-list message (ExtraValue): its repeated field 1, the list itself in JSON. */
function readStringList(m: MessageSchema, r: Reader, end: number): string[] {
  const items: string[] = [];
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | WIRE_LEN)) items.push(r.string());
    else r.skipType(tag & 7);
  }
  if (r.pos !== end) throw new Error(`message ${m.name} overruns its length`);
  return items;
}
