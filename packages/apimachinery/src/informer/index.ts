export type {
  ChangeType,
  Informer,
  InformerEventHandler,
  ListerWatcher,
  ReflectorSink,
  WatchSink,
} from './interfaces.js';
export type { ReflectorLogger, ReflectorOptions } from './reflector.js';
export { Reflector } from './reflector.js';
export { objectKey } from './object-key.js';
export type { InformerStorage, StorageListerWatcherOptions } from './storage-lister-watcher.js';
export { RevisionCursor } from './revision-cursor.js';
export { RevisionWaiters } from './revision-waiters.js';
export { StorageListerWatcher } from './storage-lister-watcher.js';
export type { StreamProgressOptions } from './stream-progress.js';
export { StreamProgress } from './stream-progress.js';
export type {
  InformerLogger,
  ListerWatcherInformerOptions,
  SharedInformerOptions,
  StorageInformerOptions,
} from './shared-informer.js';
export { SharedInformer } from './shared-informer.js';
export type { RestListerWatcherOptions } from './rest-lister-watcher.js';
export { RestListerWatcher } from './rest-lister-watcher.js';
