// @orch/apimachinery/merge: applying and updating with field ownership, a port of
// sigs.k8s.io/structured-merge-diff/v4/merge.
export type { Conflict } from './conflict.js';
export {
  ConflictsError,
  conflictString,
  conflictsFromManagers,
  conflictsMessage,
} from './conflict.js';
export type { Converter, UpdateResult, UpdaterOptions } from './update.js';
export { Updater, identityConverter } from './update.js';
