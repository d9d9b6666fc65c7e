// The resources of events.orch.io, v1 (upstream pkg/registry/events/event/storage).
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';

export const eventsGroup = 'events.orch.io';

export const eventsResources: readonly ResourceDefinition[] = [
  resource(eventsGroup, 'v1', {
    resource: 'events',
    kind: 'Event',
    singular: 'event',
    namespaced: true,
    shortNames: ['ev'],
    // One collection with core v1 Events, stored as those (converted by the gateway's store).
    storageGroup: '',
    storageResource: 'events',
    selectableFields: [
      'regarding.kind',
      'regarding.namespace',
      'regarding.name',
      'regarding.uid',
      'reason',
      'reportingController',
      'type',
    ],
  }),
];
