// apiextensions: CustomResourceDefinitions and what serves their custom resources.
export type {
  CustomResourceColumnDefinition,
  CustomResourceConversion,
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionSpec,
  CustomResourceDefinitionStatus,
  CustomResourceDefinitionVersion,
  CustomResourceSubresourceScale,
  CustomResourceSubresources,
  ExternalDocumentation,
  JSONSchemaProps,
  SelectableField,
  ServiceReference,
  ValidationRule,
  WebhookClientConfig,
} from './types.js';
export { apiextensionsGroup } from './types.js';
// The CRD kind's helpers (crd-api branch): conditions and the cleanup finalizer.
export {
  customResourceCleanupFinalizer,
  findCRDCondition,
  isCRDConditionTrue,
  removeCRDCondition,
  setCRDCondition,
} from './crd/crd-conditions.js';
// How custom resources change version: the CRD's conversion strategy (the gateway's store and
// the admission service's equivalent resources).
export type { CustomResourceConverter } from './conversion/converter.js';
export { nopConverter, unknownStrategyConverter } from './conversion/converter.js';
export type { WebhookConverterOptions } from './conversion/webhook-converter.js';
export {
  WebhookConverter,
  conversionWebhookTimeoutMs,
  supportedConversionReviewVersions,
} from './conversion/webhook-converter.js';
// Structural schemas: checks, pruning, defaulting and value validation (crd-structural).
export { applyDefaults } from './structural/apply-defaults.js';
export { pruneObject } from './structural/prune-object.js';
export { supportedStringFormats } from './structural/formats.js';
export { validateCustomResource } from './structural/validate-custom-resource.js';
export { validateDefaults } from './structural/validate-defaults.js';
export { validateStructuralSchema } from './structural/validate-structural-schema.js';
// OpenAPI of a CRD version (crd-oapi).
export type {
  CustomResourceListOpenAPIOptions,
  CustomResourceOpenAPIOptions,
} from './openapi/custom-resource-openapi-schema.js';
export {
  customResourceListOpenAPISchema,
  customResourceOpenAPISchema,
} from './openapi/custom-resource-openapi-schema.js';
// Tables of custom resources and the JSONPath of their printer columns (crd-oapi).
export {
  customResourceTable,
  defaultCustomResourceColumns,
} from './table/custom-resource-table.js';
export type { JSONPathNode } from './table/json-path.js';
export { JSONPathError, evaluateJSONPath, parseJSONPath } from './table/json-path.js';
// x-kubernetes-validations rules (crd-cel).
export type { CelDeclType } from './cel/cel-type-of.js';
export { celTypeOf, escapeCelPropertyName, toCelValueForSchema } from './cel/cel-type-of.js';
export { evaluateSchemaRules } from './cel/evaluate-schema-rules.js';
export { maxSizeOf, MAX_REQUEST_SIZE_BYTES } from './cel/schema-sizes.js';
export {
  STATIC_ESTIMATED_CRD_COST_LIMIT,
  STATIC_ESTIMATED_RULE_COST_LIMIT,
  validateSchemaRules,
} from './cel/validate-schema-rules.js';
