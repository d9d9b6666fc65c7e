// Built-in resources of the svc branch: core v1 `bindings` (create only, never stored: it
// binds a pod to a node, as the pods/binding subresource does; upstream's LegacyBinding).
import type { ResourceDefinition } from './resource-definition.js';

export const builtinSvcResources: readonly ResourceDefinition[] = [
  {
    group: '',
    version: 'v1',
    resource: 'bindings',
    kind: 'Binding',
    listKind: 'BindingList',
    singular: 'binding',
    namespaced: true,
    verbs: ['create'],
    virtual: true,
  },
];
