// @orch/apimachinery/typed: values with their types, a port of
// sigs.k8s.io/structured-merge-diff/v4/typed (and its schema package), driven by the schema model.
export type {
  Atom,
  ElementRelationship,
  ListType,
  MapType,
  Scalar,
  StructField,
  TypeRef,
} from './schema.js';
export { Schema, deducedTypeRef } from './schema.js';
export { kindTypeRef, schemaFromModel } from './schema-from-model.js';
export { typedSchemaForCustomResource } from './schema-from-custom-resource.js';
export type { ValidationError } from './helpers.js';
export { ValidationErrors, listItemToPathElement } from './helpers.js';
export type { ValidateOptions } from './validate.js';
export { Comparison } from './compare.js';
export {
  ParseableType,
  TypedValue,
  deducedParseableType,
  ensureNamedFieldsAreMembers,
  parseableTypeFor,
  reconcileWithSchema,
} from './typed-value.js';
export { reconcileFieldSetWithSchema } from './reconcile-schema.js';
