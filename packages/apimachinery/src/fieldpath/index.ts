// @orch/apimachinery/fieldpath: field paths, field sets and fieldsV1, a port of
// sigs.k8s.io/structured-merge-diff/v4/fieldpath.
export type { Field, FieldList, PathElement } from './element.js';
export {
  PathElementSet,
  compareFieldLists,
  comparePathElements,
  fieldElement,
  keyByFields,
  pathElementEquals,
  pathElementString,
} from './element.js';
export type { Path } from './path.js';
export { comparePaths, makePath, pathEquals, pathString } from './path.js';
export { Set, SetNodeMap } from './set.js';
export {
  UnknownPathElementError,
  deserializePathElement,
  serializePathElement,
} from './serialize-pe.js';
export type { FieldsV1 } from './serialize.js';
export { setFromFieldsV1, setFromJSON, setToFieldsV1, setToJSON } from './serialize.js';
export type { APIVersion, ManagedFields, VersionedSet } from './managers.js';
export {
  copyManagedFields,
  managedFieldsDifference,
  managedFieldsEquals,
  managedFieldsString,
  newVersionedSet,
} from './managers.js';
export type { Filter } from './filter.js';
export { newExcludeSetFilter } from './filter.js';
export type { JsonObject, JsonValue } from './value.js';
export {
  compareStrings,
  compareValues,
  goJson,
  isMap,
  valueEquals,
  valueToString,
} from './value.js';
