// The schema checks the CRD strategy makes on each version's openAPIV3Schema, from the libraries
// of @orch/apimachinery/apiextensions: the structural rules (validateStructuralSchema) and the
// defaults, pruned and valid (validateDefaults).
import {
  validateDefaults,
  validateSchemaRules,
  validateStructuralSchema,
} from '@orch/apimachinery/apiextensions';
import type { SchemaChecks } from './validation.js';

export const crdSchemaChecks: SchemaChecks = {
  structural: validateStructuralSchema,
  defaults: validateDefaults,
  // x-kubernetes-validations compiled and costed (crd-cel), wired by crd-serve.
  rules: validateSchemaRules,
};
