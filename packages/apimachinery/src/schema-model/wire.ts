// Protobuf wire types, shared by the encoder and the decoder of the schema model.
export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_FIXED32 = 5;

/** The wire type a scalar field of this proto type is written with. */
export function scalarWire(scalar: string): number {
  switch (scalar) {
    case 'double':
      return WIRE_FIXED64;
    case 'float':
      return WIRE_FIXED32;
    case 'string':
    case 'bytes':
      return WIRE_LEN;
    default:
      return WIRE_VARINT;
  }
}
