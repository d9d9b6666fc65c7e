// Original file: proto/orch/storage/v1/storage.proto

import type { Consistency as _orch_storage_v1_Consistency, Consistency__Output as _orch_storage_v1_Consistency__Output } from '../../../orch/storage/v1/Consistency.js';
import type { Long } from '@grpc/proto-loader';

export interface GetRequest {
  'key'?: (string);
  'consistency'?: (_orch_storage_v1_Consistency);
  'revision'?: (number | string | Long);
}

export interface GetRequest__Output {
  'key': (string);
  'consistency': (_orch_storage_v1_Consistency__Output);
  'revision': (number);
}
