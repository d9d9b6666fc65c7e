// Original file: proto/orch/storage/v1/storage.proto

import type { Long } from '@grpc/proto-loader';

export interface DeleteResponse {
  'object'?: (Buffer | Uint8Array | string);
  'revision'?: (number | string | Long);
}

export interface DeleteResponse__Output {
  'object': (Buffer);
  'revision': (number);
}
