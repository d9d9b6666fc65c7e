// Original file: proto/orch/storage/v1/storage.proto

import type { Preconditions as _orch_storage_v1_Preconditions, Preconditions__Output as _orch_storage_v1_Preconditions__Output } from '../../../orch/storage/v1/Preconditions.js';

export interface DeleteRequest {
  'key'?: (string);
  'preconditions'?: (_orch_storage_v1_Preconditions | null);
}

export interface DeleteRequest__Output {
  'key': (string);
  'preconditions': (_orch_storage_v1_Preconditions__Output | null);
}
