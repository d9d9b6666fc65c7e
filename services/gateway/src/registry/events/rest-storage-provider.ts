// The events group's REST storage (k8s pkg/registry/events/rest/storage_events.go): its Events
// are the core Events' storage, converted on the way in and out.
import { EventsV1Store } from '../core/events/events-v1-store.js';
import { eventsV1Strategy } from '../core/events/strategy.js';
import type { RestStorageProvider } from '../rest-storage-provider.js';

export const eventsProvider: RestStorageProvider = {
  groupName: 'events.orch.io',
  resources: {
    events: {
      strategy: eventsV1Strategy,
      newStore: (def, strategy, { storage, cachers }) =>
        new EventsV1Store(def, strategy, storage, cachers),
    },
  },
};
