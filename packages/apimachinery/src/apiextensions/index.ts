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
