// The schema checks the CRD strategy makes on each version's openAPIV3Schema, from the libraries
// of @orch/apimachinery/apiextensions: the structural rules (validateStructuralSchema) and the
// defaults (pruned and valid, validate-defaults.ts).
import { validateStructuralSchema } from '@orch/apimachinery/apiextensions';
import { validateDefaults } from './validate-defaults.js';
import type { SchemaChecks } from './validation.js';

export const crdSchemaChecks: SchemaChecks = {
  structural: validateStructuralSchema,
  defaults: validateDefaults,
};
