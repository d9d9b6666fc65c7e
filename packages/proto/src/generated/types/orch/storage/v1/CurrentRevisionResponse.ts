// Original file: proto/orch/storage/v1/storage.proto

import type { Long } from '@grpc/proto-loader';

export interface CurrentRevisionResponse {
  'revision'?: (number | string | Long);
}

export interface CurrentRevisionResponse__Output {
  'revision': (number);
}
