// events.orch.io (upstream pkg/apis/events): Event, one collection with core v1 Events; its Table
// columns use core's event printers.
import type { APIGroupDefinition } from '../types.js';
import { addEventsConversions } from './conversion.js';
import { eventsGroup, eventsResources } from './resources.js';

export {
  addEventsConversions,
  coreToEventsV1,
  eventsV1ApiVersion,
  eventsV1FieldSelectorToCore,
  eventsV1ToCore,
} from './conversion.js';

export const events: APIGroupDefinition = {
  name: eventsGroup,
  resources: eventsResources,
  addConversions: addEventsConversions,
};
