export { sameJson } from './equality.js';
export type { ObjectNameRule, ValidateObjectNameOptions } from './name-validation.js';
export {
  generateName,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  totalAnnotationSizeLimitBytes,
  validateAnnotations,
  validateLabels,
  validateObjectName,
} from './name-validation.js';
export type { ObjectMetaValidationOptions } from './object-meta-validation.js';
export {
  fieldImmutableErrorMsg,
  finalizerNameWarningMsg,
  isNegativeErrorMsg,
  resourceVersionSetOnCreateMsg,
  validateObjectMeta,
  validateObjectMetaCreate,
  validateObjectMetaUpdate,
  warningsForObjectMeta,
} from './object-meta-validation.js';
export type { ApiObject, ListMeta, ObjectMeta, OwnerReference, TypeMeta } from './object-meta.js';
export {
  fillObjectMetaSystemFields,
  formatTimestamp,
  now,
  wipeObjectMetaSystemFields,
} from './system-fields.js';
