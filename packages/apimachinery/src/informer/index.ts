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
export type { InformerStorage, StorageListerWatcherOptions } from './storage-lister-watcher.js';
export { StorageListerWatcher } from './storage-lister-watcher.js';
export type { InformerLogger, SharedInformerOptions } from './shared-informer.js';
export { SharedInformer, objectKey } from './shared-informer.js';
