// Original file: proto/orch/storage/v1/storage.proto

import type { EventType as _orch_storage_v1_EventType, EventType__Output as _orch_storage_v1_EventType__Output } from '../../../orch/storage/v1/EventType.js';
import type { Long } from '@grpc/proto-loader';

export interface Event {
  'type'?: (_orch_storage_v1_EventType);
  'key'?: (string);
  'revision'?: (number | string | Long);
  'object'?: (Buffer | Uint8Array | string);
  'prev_object'?: (Buffer | Uint8Array | string);
}

export interface Event__Output {
  'type': (_orch_storage_v1_EventType__Output);
  'key': (string);
  'revision': (number);
  'object': (Buffer);
  'prev_object': (Buffer);
}
