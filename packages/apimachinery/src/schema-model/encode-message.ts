// A two-pass protobuf encoder straight from JSON objects, driven by the schema model: the first
// pass computes every length-delimited size (messages, strings, bytes) in traversal order, the
// second writes into one buffer of the exact size. No intermediate objects, no per-field writer
// operations: several times faster than converting to protobufjs' plain objects and encoding.
// Fields are written in declaration order, repeated scalars unpacked (proto2, as upstream).
import type { FieldSchema, MessageSchema, ValueType } from './schema-model.js';
import { parseDuration, parseTime } from './special-types.js';
import { WIRE_LEN, WIRE_VARINT, scalarWire } from './wire.js';

type Json = Record<string, unknown>;
const isPlainObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function varintSize(n: number): number {
  if (n < 0) return 10;
  if (n < 0x80) return 1;
  if (n < 0x4000) return 2;
  if (n < 0x200000) return 3;
  if (n < 0x10000000) return 4;
  let size = 4;
  let v = Math.floor(n / 0x10000000);
  while (v > 0) {
    size++;
    v = Math.floor(v / 0x80);
  }
  return size;
}

/** What the second pass consumes, in the order the first pass produced it. */
interface Plan {
  /** Sizes of length-delimited values (message bodies, string byte lengths). */
  sizes: number[];
  /** Decoded byte values (bytes fields, JSON of raw and fields-v1), in order. */
  blobs: Buffer[];
}

function toInt(v: unknown): number {
  return typeof v === 'number'
    ? Math.trunc(v)
    : typeof v === 'boolean'
      ? v
        ? 1
        : 0
      : Number(v) || 0;
}

// ---- pass 1: sizes ----

function sizeScalar(scalar: string, v: unknown, plan: Plan): number {
  switch (scalar) {
    case 'string': {
      const len = Buffer.byteLength(String(v), 'utf8');
      plan.sizes.push(len);
      return varintSize(len) + len;
    }
    case 'bytes': {
      const buf = typeof v === 'string' ? Buffer.from(v, 'base64') : Buffer.alloc(0);
      plan.blobs.push(buf);
      return varintSize(buf.length) + buf.length;
    }
    case 'bool':
      return 1;
    case 'double':
      return 8;
    case 'float':
      return 4;
    default:
      return varintSize(toInt(v));
  }
}

/** Size of a message body (without tag and length) for a JSON value of a special json type. */
function sizeSpecial(m: MessageSchema, v: unknown, plan: Plan): number {
  switch (m.jsonType) {
    case 'quantity':
      return 1 + sizeScalar('string', String(v), plan);
    case 'int-or-string':
      if (typeof v === 'number') return 1 + 1 + 1 + varintSize(toInt(v));
      return 1 + 1 + 1 + sizeScalar('string', String(v), plan);
    case 'time':
    case 'micro-time': {
      const t = typeof v === 'string' ? parseTime(v) : undefined;
      if (!t) return 0;
      return 1 + varintSize(t.seconds) + 1 + varintSize(t.nanos);
    }
    case 'duration':
      return 1 + varintSize(typeof v === 'string' ? (parseDuration(v) ?? 0) : 0);
    case 'string-list':
      return (Array.isArray(v) ? v : []).reduce(
        (size: number, x) => size + 1 + sizeScalar('string', x, plan),
        0
      );
    default: {
      const buf = Buffer.from(JSON.stringify(v));
      plan.blobs.push(buf);
      return 1 + varintSize(buf.length) + buf.length;
    }
  }
}

function sizeMessageValue(m: MessageSchema, v: unknown, plan: Plan): number {
  const at = plan.sizes.length;
  plan.sizes.push(0);
  const body = m.jsonType ? sizeSpecial(m, v, plan) : sizeBody(m, isPlainObject(v) ? v : {}, plan);
  plan.sizes[at] = body;
  return varintSize(body) + body;
}

function sizeValue(t: ValueType, v: unknown, plan: Plan): number {
  return 'scalar' in t ? sizeScalar(t.scalar, v, plan) : sizeMessageValue(t.message, v, plan);
}

function hasInline(m: MessageSchema, obj: Json): boolean {
  for (const key of m.jsonFields.keys())
    if (obj[key] !== undefined && obj[key] !== null) return true;
  return false;
}

function sizeBody(m: MessageSchema, obj: Json, plan: Plan): number {
  let size = 0;
  for (const f of m.fields) {
    if (f.inline && 'message' in f.value) {
      const inner = f.value.message;
      if (!hasInline(inner, obj)) continue;
      const at = plan.sizes.length;
      plan.sizes.push(0);
      const body = sizeBody(inner, obj, plan);
      plan.sizes[at] = body;
      size += varintSize(f.number * 8) + varintSize(body) + body;
      continue;
    }
    const v = obj[f.name];
    if (v === undefined || v === null) continue;
    size += sizeField(f, v, plan);
  }
  return size;
}

function sizeField(f: FieldSchema, v: unknown, plan: Plan): number {
  const tag = varintSize(f.number * 8);
  if (f.map) {
    if (!isPlainObject(v)) return 0;
    let size = 0;
    for (const [k, x] of Object.entries(v)) {
      if (x === null || x === undefined) continue;
      const at = plan.sizes.length;
      plan.sizes.push(0);
      const entry = 1 + sizeScalar('string', k, plan) + 1 + sizeValue(f.value, x, plan);
      plan.sizes[at] = entry;
      size += tag + varintSize(entry) + entry;
    }
    return size;
  }
  if (f.repeated) {
    if (!Array.isArray(v)) return 0;
    let size = 0;
    for (const x of v) size += tag + sizeValue(f.value, x, plan);
    return size;
  }
  return tag + sizeValue(f.value, v, plan);
}

// ---- pass 2: writing ----

class Out {
  readonly buf: Buffer;
  pos = 0;
  sizeAt = 0;
  blobAt = 0;

  constructor(
    readonly plan: Plan,
    total: number
  ) {
    this.buf = Buffer.allocUnsafe(total);
  }

  varint(n: number): void {
    if (n < 0) {
      // Two's complement over 64 bits, as protobuf writes negative int32 and int64.
      let lo = n >>> 0;
      let hi = Math.floor(n / 0x100000000) >>> 0;
      for (let i = 0; i < 9; i++) {
        this.buf[this.pos++] = (lo & 0x7f) | 0x80;
        lo = ((lo >>> 7) | (hi << 25)) >>> 0;
        hi = hi >>> 7;
      }
      this.buf[this.pos++] = lo & 0x01;
      return;
    }
    while (n >= 0x80) {
      this.buf[this.pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.pos++] = n;
  }

  tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  nextSize(): number {
    return this.plan.sizes[this.sizeAt++] ?? 0;
  }

  string(s: string): void {
    const len = this.nextSize();
    this.varint(len);
    this.buf.write(s, this.pos, len, 'utf8');
    this.pos += len;
  }

  blob(): void {
    const b = this.plan.blobs[this.blobAt++] ?? Buffer.alloc(0);
    this.varint(b.length);
    b.copy(this.buf, this.pos);
    this.pos += b.length;
  }
}

function writeScalar(out: Out, scalar: string, v: unknown): void {
  switch (scalar) {
    case 'string':
      return out.string(String(v));
    case 'bytes':
      return out.blob();
    case 'bool':
      out.buf[out.pos++] = v ? 1 : 0;
      return;
    case 'double':
      out.buf.writeDoubleLE(Number(v), out.pos);
      out.pos += 8;
      return;
    case 'float':
      out.buf.writeFloatLE(Number(v), out.pos);
      out.pos += 4;
      return;
    default:
      return out.varint(toInt(v));
  }
}

function writeSpecial(out: Out, m: MessageSchema, v: unknown): void {
  switch (m.jsonType) {
    case 'quantity':
      out.tag(1, WIRE_LEN);
      return out.string(String(v));
    case 'int-or-string':
      if (typeof v === 'number') {
        out.tag(1, WIRE_VARINT);
        out.varint(0);
        out.tag(2, WIRE_VARINT);
        return out.varint(toInt(v));
      }
      out.tag(1, WIRE_VARINT);
      out.varint(1);
      out.tag(3, WIRE_LEN);
      return out.string(String(v));
    case 'time':
    case 'micro-time': {
      const t = typeof v === 'string' ? parseTime(v) : undefined;
      if (!t) return;
      out.tag(1, WIRE_VARINT);
      out.varint(t.seconds);
      out.tag(2, WIRE_VARINT);
      return out.varint(t.nanos);
    }
    case 'duration':
      out.tag(1, WIRE_VARINT);
      return out.varint(typeof v === 'string' ? (parseDuration(v) ?? 0) : 0);
    case 'string-list':
      for (const x of Array.isArray(v) ? v : []) {
        out.tag(1, WIRE_LEN);
        out.string(String(x));
      }
      return;
    default:
      out.tag(1, WIRE_LEN);
      return out.blob();
  }
}

function writeMessageValue(out: Out, m: MessageSchema, v: unknown): void {
  out.varint(out.nextSize());
  if (m.jsonType) writeSpecial(out, m, v);
  else writeBody(out, m, isPlainObject(v) ? v : {});
}

function writeValue(out: Out, t: ValueType, v: unknown): void {
  if ('scalar' in t) writeScalar(out, t.scalar, v);
  else writeMessageValue(out, t.message, v);
}

function wireOf(t: ValueType): number {
  return 'scalar' in t ? scalarWire(t.scalar) : WIRE_LEN;
}

function writeBody(out: Out, m: MessageSchema, obj: Json): void {
  for (const f of m.fields) {
    if (f.inline && 'message' in f.value) {
      const inner = f.value.message;
      if (!hasInline(inner, obj)) continue;
      out.tag(f.number, WIRE_LEN);
      out.varint(out.nextSize());
      writeBody(out, inner, obj);
      continue;
    }
    const v = obj[f.name];
    if (v === undefined || v === null) continue;
    if (f.map) {
      if (!isPlainObject(v)) continue;
      for (const [k, x] of Object.entries(v)) {
        if (x === null || x === undefined) continue;
        out.tag(f.number, WIRE_LEN);
        out.varint(out.nextSize());
        out.tag(1, WIRE_LEN);
        out.string(k);
        out.tag(2, wireOf(f.value));
        writeValue(out, f.value, x);
      }
      continue;
    }
    if (f.repeated) {
      if (!Array.isArray(v)) continue;
      for (const x of v) {
        out.tag(f.number, wireOf(f.value));
        writeValue(out, f.value, x);
      }
      continue;
    }
    out.tag(f.number, wireOf(f.value));
    writeValue(out, f.value, v);
  }
}

/** Encodes a JSON object (validated against the message) as the message's protobuf bytes. */
export function encodeMessage(m: MessageSchema, obj: unknown): Buffer {
  const plan: Plan = { sizes: [], blobs: [] };
  const root = isPlainObject(obj) ? obj : {};
  const total = m.jsonType ? sizeSpecial(m, obj, plan) : sizeBody(m, root, plan);
  const out = new Out(plan, total);
  if (m.jsonType) writeSpecial(out, m, obj);
  else writeBody(out, m, root);
  if (out.pos !== total) throw new Error(`protobuf encoder: wrote ${out.pos} bytes of ${total}`);
  return out.buf;
}
