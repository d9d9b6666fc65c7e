// The built-in kinds of resource quota and limit ranges: core v1 resourcequotas (with status)
// and limitranges (upstream pkg/registry/core/resourcequota, pkg/registry/core/limitrange).
import { allVerbs } from './resource-definition.js';
import type { ResourceDefinition } from './resource-definition.js';

export const builtinQuotaResources: readonly ResourceDefinition[] = [
  {
    group: '',
    version: 'v1',
    resource: 'resourcequotas',
    kind: 'ResourceQuota',
    listKind: 'ResourceQuotaList',
    singular: 'resourcequota',
    namespaced: true,
    verbs: allVerbs,
    shortNames: ['quota'],
    subresources: ['status'],
  },
  {
    group: '',
    version: 'v1',
    resource: 'limitranges',
    kind: 'LimitRange',
    listKind: 'LimitRangeList',
    singular: 'limitrange',
    namespaced: true,
    verbs: allVerbs,
    shortNames: ['limits'],
  },
];
