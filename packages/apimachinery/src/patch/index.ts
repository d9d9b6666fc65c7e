export { applyJsonPatch, maxJsonPatchCopyBytes, maxJsonPatchOperations } from './json-patch.js';
export { applyMergePatch } from './merge-patch.js';
export { PatchError } from './patch-error.js';
export { applyStrategicMergePatch } from './strategic-merge-patch.js';
