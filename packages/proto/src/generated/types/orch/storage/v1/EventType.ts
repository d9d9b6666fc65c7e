// Original file: proto/orch/storage/v1/storage.proto

export const EventType = {
  EVENT_TYPE_UNSPECIFIED: 'EVENT_TYPE_UNSPECIFIED',
  EVENT_TYPE_ADDED: 'EVENT_TYPE_ADDED',
  EVENT_TYPE_MODIFIED: 'EVENT_TYPE_MODIFIED',
  EVENT_TYPE_DELETED: 'EVENT_TYPE_DELETED',
  EVENT_TYPE_PROGRESS: 'EVENT_TYPE_PROGRESS',
} as const;

export type EventType =
  | 'EVENT_TYPE_UNSPECIFIED'
  | 0
  | 'EVENT_TYPE_ADDED'
  | 1
  | 'EVENT_TYPE_MODIFIED'
  | 2
  | 'EVENT_TYPE_DELETED'
  | 3
  | 'EVENT_TYPE_PROGRESS'
  | 4

export type EventType__Output = typeof EventType[keyof typeof EventType]
