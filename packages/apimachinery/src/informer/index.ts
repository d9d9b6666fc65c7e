export type {
  InformerEventHandler,
  InformerLogger,
  InformerStorage,
  SharedInformerOptions,
} from './shared-informer.js';
export { SharedInformer, objectKey } from './shared-informer.js';
