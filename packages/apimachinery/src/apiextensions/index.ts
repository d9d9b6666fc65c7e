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
// x-kubernetes-validations rules (crd-cel).
export type { CelSchemaType } from './cel/cel-type-of.js';
export { celTypeOf, escapeCelPropertyName, toCelValueForSchema } from './cel/cel-type-of.js';
export { evaluateSchemaRules } from './cel/evaluate-schema-rules.js';
export { maxSizeOf, MAX_REQUEST_SIZE_BYTES } from './cel/schema-sizes.js';
export {
  STATIC_ESTIMATED_CRD_COST_LIMIT,
  STATIC_ESTIMATED_RULE_COST_LIMIT,
  validateSchemaRules,
} from './cel/validate-schema-rules.js';
