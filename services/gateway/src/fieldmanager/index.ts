// The gateway's field manager (k8s.io/apiserver pkg/endpoints/handlers/fieldmanager, now
// k8s.io/apimachinery util/managedfields): managedFields on every write, server-side apply.
export { FieldManager, fieldManagerFor, resetFieldsFor } from './field-manager.js';
export type { FieldManagerCustomResource, FieldManagerKind } from './field-manager.js';
export type { ManagedFieldsEntry } from './managed-fields.js';
export {
  Managed,
  buildManagerIdentifier,
  decodeManagedFields,
  encodeManagedFields,
  isResetManagedFields,
} from './managed-fields.js';
export {
  capUpdateManagers,
  defaultMaxUpdateManagers,
  oldUpdatesManagerName,
} from './cap-managers-manager.js';
export { beforeFirstApplyManagerName } from './skip-non-applied-manager.js';
export { lastAppliedConfigAnnotation } from './last-applied.js';
export { newApplyConflictError, printManager } from './conflict-error.js';
export { managerOrUserAgent, prefixFromUserAgent } from './manager-name.js';
