// Original file: proto/orch/storage/v1/storage.proto

import type { Long } from '@grpc/proto-loader';

export interface GetListResponse {
  'items'?: (Buffer | Uint8Array | string)[];
  'revision'?: (number | string | Long);
  'continue'?: (string);
  'remaining_item_count'?: (number | string | Long);
}

export interface GetListResponse__Output {
  'items': (Buffer)[];
  'revision': (number);
  'continue': (string);
  'remaining_item_count': (number);
}
