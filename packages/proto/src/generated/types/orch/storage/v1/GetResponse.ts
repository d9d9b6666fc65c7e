// Original file: proto/orch/storage/v1/storage.proto

import type { Long } from '@grpc/proto-loader';

export interface GetResponse {
  'object'?: (Buffer | Uint8Array | string);
  'revision'?: (number | string | Long);
}

export interface GetResponse__Output {
  'object': (Buffer);
  'revision': (number);
}
