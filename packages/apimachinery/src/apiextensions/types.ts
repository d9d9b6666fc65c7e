// The JSON shapes of apiextensions.orch.io/v1 (k8s.io/apiextensions-apiserver/pkg/apis/
// apiextensions/v1 types.go and types_jsonschema.go): a CustomResourceDefinition and the
// JSONSchemaProps of its versions' schemas. The structural-schema, CEL-rule, OpenAPI, conversion
// and serving code all read CRDs through these types.
import type { WebhookClientConfig } from '../registry/admissionregistration-types.js';
import type { ObjectMeta } from '../meta/index.js';

// A conversion webhook is reached as an admission webhook is (upstream shares the type too).
export type {
  ServiceReference,
  WebhookClientConfig,
} from '../registry/admissionregistration-types.js';

/** One `x-kubernetes-validations` rule (upstream ValidationRule). */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  /** FieldValueInvalid (default), FieldValueForbidden, FieldValueRequired, FieldValueDuplicate. */
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface ExternalDocumentation {
  description?: string;
  url?: string;
}

/** An OpenAPI v3 schema as a CRD writes it, with the Kubernetes extensions (types_jsonschema.go). */
export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  /** A schema, or (JSONSchemaPropsOrArray) a list of schemas. */
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  /** A schema, or (JSONSchemaPropsOrBool) a boolean. */
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  /** Each value a schema or (JSONSchemaPropsOrStringArray) a list of property names. */
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: ExternalDocumentation;
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  /** atomic, set or map. */
  'x-kubernetes-list-type'?: string;
  /** granular or atomic. */
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

export interface CustomResourceDefinitionNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

export interface CustomResourceConversion {
  /** None or Webhook. */
  strategy: string;
  webhook?: {
    clientConfig?: WebhookClientConfig;
    conversionReviewVersions: string[];
  };
}

export interface CustomResourceColumnDefinition {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CustomResourceSubresourceScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface CustomResourceSubresources {
  /** Present (an empty object) when the status subresource is on. */
  status?: Record<string, never>;
  scale?: CustomResourceSubresourceScale;
}

export interface SelectableField {
  jsonPath: string;
}

export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: SelectableField[];
}

export interface CustomResourceDefinitionSpec {
  group: string;
  names: CustomResourceDefinitionNames;
  /** Namespaced or Cluster. */
  scope: string;
  versions: CustomResourceDefinitionVersion[];
  conversion?: CustomResourceConversion;
  preserveUnknownFields?: boolean;
}

export interface CustomResourceDefinitionCondition {
  /** Established, NamesAccepted, NonStructuralSchema, Terminating, KubernetesAPIApprovalPolicyConformant. */
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CustomResourceDefinitionStatus {
  conditions?: CustomResourceDefinitionCondition[];
  acceptedNames?: CustomResourceDefinitionNames;
  storedVersions?: string[];
}

/**
 * A CustomResourceDefinition as the code reads it: written here rather than generated, as the
 * proto keeps openAPIV3Schema as raw JSON. A type alias (not an interface), so that it converts
 * to and from the decoded JSON (Record<string, unknown>) informers and clients hand.
 */
export type CustomResourceDefinition = {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta & { name: string };
  spec: CustomResourceDefinitionSpec;
  status?: CustomResourceDefinitionStatus;
};

/** The API group of CustomResourceDefinitions. */
export const apiextensionsGroup = 'apiextensions.orch.io';
