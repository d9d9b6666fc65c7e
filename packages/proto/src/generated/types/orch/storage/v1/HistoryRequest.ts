// Original file: proto/orch/storage/v1/storage.proto

import type { Long } from '@grpc/proto-loader';

export interface HistoryRequest {
  'prefix'?: (string);
  'after_revision'?: (number | string | Long);
}

export interface HistoryRequest__Output {
  'prefix': (string);
  'after_revision': (number);
}
