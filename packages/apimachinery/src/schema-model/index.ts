export type {
  FieldSchema,
  JsonType,
  KindSchema,
  MessageSchema,
  ScalarType,
  TableColumnSpec,
  ValueType,
} from './schema-model.js';
export { SchemaModel, builtinSchemaModel, protoPackageOf } from './schema-model.js';
export { decodeMessage } from './decode-message.js';
export { encodeMessage } from './encode-message.js';
export type { FieldProblem, FieldValidationResult } from './validate-object.js';
export { validateObject } from './validate-object.js';
export { applyDefaults } from './apply-defaults.js';
export { goAlwaysWritten } from './go-always-written.js';
export type { Defaulter, Defaulters } from '../apis/index.js';
export { builtinDefaulters } from '../apis/index.js';
export { imageTag } from '../apis/core/index.js';
export type { StrictJson } from './parse-json-strict.js';
export { parseJsonStrict } from './parse-json-strict.js';
export { formatTime, isQuantity, parseTime } from './special-types.js';
export type {
  IncludeObject,
  Table,
  TableColumnDefinition,
  TableOptions,
  TableRow,
} from './to-table.js';
export { humanDuration, tableColumnDefinitions, tablePrinterNames, toTable } from './to-table.js';
export type {
  PartialObjectMetadata,
  PartialObjectMetadataList,
} from './partial-object-metadata.js';
export { asPartialObjectMetadata, asPartialObjectMetadataList } from './partial-object-metadata.js';
export { openApiDefinitionName, openApiDefinitions } from './openapi-definitions.js';
