export type { FieldSchema, JsonType, KindSchema, MessageSchema, ScalarType, TableColumnSpec, ValueType } from './schema-model.js';
export { SchemaModel, builtinSchemaModel, protoPackageOf } from './schema-model.js';
export { decodeMessage, encodeMessage } from './proto-codec.js';
export type { FieldProblem, FieldValidationResult } from './validate-fields.js';
export { validateObject } from './validate-fields.js';
export type { StrictJson } from './parse-json-strict.js';
export { parseJsonStrict } from './parse-json-strict.js';
export { formatTime, isQuantity, parseTime } from './special-types.js';
