// Original file: proto/orch/storage/v1/storage.proto

import type { Preconditions as _orch_storage_v1_Preconditions, Preconditions__Output as _orch_storage_v1_Preconditions__Output } from '../../../orch/storage/v1/Preconditions.js';

export interface UpdateRequest {
  'key'?: (string);
  'object'?: (Buffer | Uint8Array | string);
  'preconditions'?: (_orch_storage_v1_Preconditions | null);
}

export interface UpdateRequest__Output {
  'key': (string);
  'object': (Buffer);
  'preconditions': (_orch_storage_v1_Preconditions__Output | null);
}
