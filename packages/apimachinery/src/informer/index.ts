export type {
  ChangeType,
  Informer,
  InformerEventHandler,
  ListerWatcher,
  ReflectorSink,
  WatchSink,
} from './interfaces.js';
export type { InformerLogger, InformerStorage, SharedInformerOptions } from './shared-informer.js';
export { SharedInformer, objectKey } from './shared-informer.js';
export type { RestListerWatcherOptions } from './rest-lister-watcher.js';
export { RestListerWatcher } from './rest-lister-watcher.js';
