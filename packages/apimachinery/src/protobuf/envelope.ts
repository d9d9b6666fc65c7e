// The binary serialization envelope: the magic 6b 38 73 00, then an Unknown holding typeMeta
// and raw, the object encoded with the field numbers of proto/. Watch streams are frames of a
// four-byte big-endian length followed by an envelope of a WatchEvent whose object is itself an
// envelope (as Kubernetes frames them).
import { canonicalGroup, parseApiVersion } from '../schema/index.js';
import type { MessageSchema, SchemaModel } from '../schema-model/schema-model.js';
import { builtinSchemaModel } from '../schema-model/schema-model.js';
import { decodeMessage } from '../schema-model/decode-message.js';
import { encodeMessage } from '../schema-model/encode-message.js';

export const protobufMagic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** The media types of the envelope: orch's own and the Kubernetes one (same bytes). */
export const protobufMediaTypes = [
  'application/vnd.orch.protobuf',
  'application/vnd.kubernetes.protobuf',
];

/** A malformed envelope: wrong magic, truncated, or a raw that does not decode. */
export class EnvelopeError extends Error {}

type Json = Record<string, unknown>;

/** True when the bytes start with the envelope's magic. */
export function hasProtobufMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && protobufMagic.equals(Buffer.from(bytes.buffer, bytes.byteOffset, 4));
}

/**
 * The message of a kind named by apiVersion and kind: the group's own, else meta (Status, Table,
 * WatchEvent...). An upstream group name finds the kind of the group it is served as, so that
 * bodies in upstream's apiVersion encode and decode (the envelope keeps the name it was given).
 */
export function messageFor(
  model: SchemaModel,
  apiVersion: string,
  kind: string
): MessageSchema | undefined {
  const gv = parseApiVersion(apiVersion);
  if (gv) {
    const own = model.kind({ group: canonicalGroup(gv.group), version: gv.version, kind });
    if (own) return own.message;
  }
  return model.message(`orch.api.meta.v1.${kind}`);
}

function unknownType(model: SchemaModel): MessageSchema {
  const m = model.message('orch.api.runtime.Unknown');
  if (!m) throw new Error('schema model: orch.api.runtime.Unknown is missing');
  return m;
}

function varint(n: number): Buffer {
  const bytes: number[] = [];
  while (n >= 0x80) {
    bytes.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  bytes.push(n);
  return Buffer.from(bytes);
}

function lengthDelimited(field: number, value: Uint8Array): Buffer[] {
  return [
    varint(field * 8 + 2),
    varint(value.length),
    Buffer.from(value.buffer, value.byteOffset, value.byteLength),
  ];
}

/** The magic, then Unknown {typeMeta: {apiVersion, kind}, raw}, written directly (raw is not copied twice). */
function wrap(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  const typeMeta = Buffer.concat([
    ...lengthDelimited(1, Buffer.from(apiVersion)),
    ...lengthDelimited(2, Buffer.from(kind)),
  ]);
  return Buffer.concat([
    protobufMagic,
    ...lengthDelimited(1, typeMeta),
    ...lengthDelimited(2, raw),
  ]);
}

/** True when the object's kind has a schema, so it can be written in the envelope. */
export function canEncode(obj: unknown, model: SchemaModel = builtinSchemaModel()): boolean {
  const o = obj as Json;
  return (
    typeof o?.['kind'] === 'string' &&
    messageFor(model, String(o['apiVersion'] ?? ''), String(o['kind'])) !== undefined
  );
}

/** Encodes an object (with apiVersion and kind) in the envelope; throws when its kind has no schema. */
export function encodeEnvelope(obj: unknown, model: SchemaModel = builtinSchemaModel()): Buffer {
  const o = obj as Json;
  const apiVersion = String(o['apiVersion'] ?? '');
  const kind = String(o['kind'] ?? '');
  const m = messageFor(model, apiVersion, kind);
  if (!m)
    throw new EnvelopeError(`no protobuf schema for ${kind} in ${apiVersion || 'no version'}`);
  if (kind === 'WatchEvent') return wrap(apiVersion, kind, encodeWatchEventRaw(model, o));
  return wrap(apiVersion, kind, encodeMessage(m, o));
}

function encodeWatchEventRaw(model: SchemaModel, ev: Json): Uint8Array {
  const m = model.message('orch.api.meta.v1.WatchEvent');
  if (!m) throw new Error('schema model: WatchEvent is missing');
  const inner = encodeEnvelope(ev['object'], model);
  return m.type.encode(m.type.fromObject({ type: ev['type'], object: { raw: inner } })).finish();
}

/** Decodes an envelope into the JSON object (apiVersion and kind from typeMeta; list items get them too). */
export function decodeEnvelope(bytes: Uint8Array, model: SchemaModel = builtinSchemaModel()): Json {
  if (!hasProtobufMagic(bytes))
    throw new EnvelopeError(
      'the body does not start with the protobuf envelope prefix 6b 38 73 00'
    );
  let unknown: Json;
  try {
    const u = unknownType(model).type;
    unknown = u.toObject(u.decode(bytes.subarray(4)), { bytes: Buffer, defaults: false }) as Json;
  } catch (err) {
    throw new EnvelopeError(`the protobuf envelope does not decode: ${(err as Error).message}`);
  }
  const typeMeta = (unknown['typeMeta'] ?? {}) as Json;
  const apiVersion = String(typeMeta['apiVersion'] ?? '');
  const kind = String(typeMeta['kind'] ?? '');
  if (
    unknown['contentEncoding'] ||
    (unknown['contentType'] && !protobufMediaTypes.includes(String(unknown['contentType'])))
  ) {
    throw new EnvelopeError(
      `unsupported envelope content: encoding "${String(unknown['contentEncoding'] ?? '')}", type "${String(unknown['contentType'] ?? '')}"`
    );
  }
  const m = messageFor(model, apiVersion, kind);
  if (!m)
    throw new EnvelopeError(
      `no protobuf schema for ${kind || 'an unnamed kind'} in ${apiVersion || 'no version'}`
    );
  const raw = (unknown['raw'] as Uint8Array | undefined) ?? new Uint8Array(0);
  if (kind === 'WatchEvent') return decodeWatchEventRaw(model, raw);
  let obj: Json;
  try {
    obj = decodeMessage(m, raw) as Json;
  } catch (err) {
    throw new EnvelopeError(
      `the ${kind} in the envelope does not decode: ${(err as Error).message}`
    );
  }
  const out: Json = { apiVersion, kind, ...obj };
  if (kind.endsWith('List') && Array.isArray(out['items'])) {
    const itemKind = kind.slice(0, -'List'.length);
    out['items'] = (out['items'] as Json[]).map((item) => ({
      apiVersion,
      kind: itemKind,
      ...item,
    }));
  }
  return out;
}

function decodeWatchEventRaw(model: SchemaModel, raw: Uint8Array): Json {
  const m = model.message('orch.api.meta.v1.WatchEvent');
  if (!m) throw new Error('schema model: WatchEvent is missing');
  let ev: Json;
  try {
    ev = m.type.toObject(m.type.decode(raw), { bytes: Buffer, defaults: false }) as Json;
  } catch (err) {
    throw new EnvelopeError(`the WatchEvent does not decode: ${(err as Error).message}`);
  }
  const inner = ((ev['object'] ?? {}) as Json)['raw'] as Uint8Array | undefined;
  return { type: ev['type'], object: inner ? decodeEnvelope(inner, model) : {} };
}

/** A watch frame: four-byte big-endian length, then the envelope of the WatchEvent. */
export function encodeWatchFrame(
  type: string,
  object: Json,
  model: SchemaModel = builtinSchemaModel()
): Buffer {
  const apiVersion = String(object['apiVersion'] ?? 'v1');
  const env = encodeEnvelope({ apiVersion, kind: 'WatchEvent', type, object }, model);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(env.length);
  return Buffer.concat([len, env]);
}

/** Splits a byte stream into length-prefixed frames as they complete. */
export class FrameReader {
  private pending = Buffer.alloc(0);

  /** Adds bytes; returns the frames completed by them. */
  push(chunk: Uint8Array): Buffer[] {
    this.pending = Buffer.concat([this.pending, chunk]);
    const frames: Buffer[] = [];
    while (this.pending.length >= 4) {
      const len = this.pending.readUInt32BE(0);
      if (this.pending.length < 4 + len) break;
      frames.push(this.pending.subarray(4, 4 + len));
      this.pending = this.pending.subarray(4 + len);
    }
    return frames;
  }

  /** Bytes of an incomplete frame left over. */
  get remaining(): number {
    return this.pending.length;
  }
}

/** Decodes one watch frame's envelope into {type, object}. */
export function decodeWatchFrame(
  frame: Uint8Array,
  model: SchemaModel = builtinSchemaModel()
): { type: string; object: Json } {
  const ev = decodeEnvelope(frame, model);
  return { type: String(ev['type']), object: ev['object'] as Json };
}
