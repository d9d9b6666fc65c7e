export type { ResourceDefinition, Verb } from './resource-definition.js';
export { allVerbs, gvkOf } from './resource-definition.js';
export { builtinResources } from './builtin-resources.js';
export { ResourceRegistry, storageKey, storagePrefix } from './resource-registry.js';
