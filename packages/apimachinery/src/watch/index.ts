export type { ChangeMessage, ChangeType, ProgressMessage, WatchMessage } from './watch-message.js';
export {
  decodeWatchMessage,
  encodeChangeMessage,
  encodeWatchMessage,
  progressRequestSubject,
  publishedSubject,
  revisionRequestSubject,
  subjectForKey,
  watchSubjectRoot,
} from './watch-message.js';
export type { WatchEvent, WatchEventType } from './watch-event.js';
