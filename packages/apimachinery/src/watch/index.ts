export type { ChangeMessage, ChangeType, ProgressMessage, WatchMessage } from './watch-message.js';
export {
  decodeWatchMessage,
  encodeChangeMessage,
  encodeWatchMessage,
  progressRequestSubject,
  subjectForKey,
  watchSubjectRoot,
} from './watch-message.js';
export type { WatchEvent, WatchEventType } from './watch-event.js';
