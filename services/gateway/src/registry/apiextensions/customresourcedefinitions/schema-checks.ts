// The schema checks the CRD strategy makes on each version's openAPIV3Schema, from the libraries
// of @orch/apimachinery/apiextensions: the structural rules (validateStructuralSchema) and the
// defaults, pruned and valid (validateDefaults), then the x-kubernetes-validations rules:
// compiled, typed and within the cost limits (validateSchemaRules).
import {
  validateDefaults,
  validateSchemaRules,
  validateStructuralSchema,
} from '@orch/apimachinery/apiextensions';
import type { SchemaChecks } from './validation.js';

export const crdSchemaChecks: SchemaChecks = {
  structural: validateStructuralSchema,
  defaults: validateDefaults,
  rules: validateSchemaRules,
};
