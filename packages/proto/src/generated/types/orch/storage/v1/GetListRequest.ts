// Original file: proto/orch/storage/v1/storage.proto

import type { Consistency as _orch_storage_v1_Consistency, Consistency__Output as _orch_storage_v1_Consistency__Output } from '../../../orch/storage/v1/Consistency.js';
import type { Long } from '@grpc/proto-loader';

export interface GetListRequest {
  'prefix'?: (string);
  'consistency'?: (_orch_storage_v1_Consistency);
  'revision'?: (number | string | Long);
  'limit'?: (number | string | Long);
  'continue'?: (string);
  'label_selector'?: (string);
  'field_selector'?: (string);
}

export interface GetListRequest__Output {
  'prefix': (string);
  'consistency': (_orch_storage_v1_Consistency__Output);
  'revision': (number);
  'limit': (number);
  'continue': (string);
  'label_selector': (string);
  'field_selector': (string);
}
