// Watch events as clients receive them (k8s.io/apimachinery/pkg/watch).
import type { Status } from '../errors/index.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  type: WatchEventType;
  object: Record<string, unknown> | Status;
}
