// JSON objects ↔ protobuf bytes, driven by the schema model: field numbers from proto/, the
// special JSON forms (Quantity, IntOrString, Time, MicroTime, RawExtension, FieldsV1), maps,
// int64, and inline (embedded) messages. Decoding applies omitempty: a scalar holding its zero
// value is left out of the JSON unless the field keeps zero values (keep_zero or required).
import type { MessageSchema } from './schema-model.js';
import { decodeJson } from './proto-decoder.js';
import { encodeJson } from './proto-encoder.js';

/** Encodes a JSON object (already validated against the message) as protobuf bytes. */
export function encodeMessage(m: MessageSchema, obj: unknown): Uint8Array {
  return encodeJson(m, obj);
}

/** Decodes protobuf bytes of a message into its JSON form. */
export function decodeMessage(m: MessageSchema, bytes: Uint8Array): unknown {
  return decodeJson(m, bytes);
}
