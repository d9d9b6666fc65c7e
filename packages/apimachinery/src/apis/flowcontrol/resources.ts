// The resources of flowcontrol.apiserver.orch.io (upstream pkg/registry/flowcontrol/*/storage):
// v1, and v1beta3 beside it as upstream 1.29-1.31 served it (introduced 1.26, a beta after 1.22
// so off unless --runtime-config turns it on; deprecated 1.29, removed 1.32, the spec's
// replacement for v1beta1 and v1beta2). One collection each, stored as v1, converted by
// ./conversion.ts.
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';

export const flowcontrolGroup = 'flowcontrol.apiserver.orch.io';

const kinds = [
  { resource: 'flowschemas', kind: 'FlowSchema' },
  { resource: 'prioritylevelconfigurations', kind: 'PriorityLevelConfiguration' },
] as const;

const served = (version: 'v1' | 'v1beta3'): ResourceDefinition[] =>
  kinds.map(({ resource: name, kind }) =>
    resource(flowcontrolGroup, version, {
      resource: name,
      kind,
      singular: kind.toLowerCase(),
      namespaced: false,
      subresources: ['status'],
      ...(version === 'v1'
        ? {}
        : {
            storageVersion: 'v1',
            deprecation: {
              deprecatedIn: '1.29',
              removedIn: '1.32',
              replacement: `${flowcontrolGroup}/v1 ${kind}`,
            },
          }),
    })
  );

export const flowcontrolResources: readonly ResourceDefinition[] = [
  ...served('v1'),
  ...served('v1beta3'),
];
