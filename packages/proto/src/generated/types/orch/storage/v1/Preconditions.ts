// Original file: proto/orch/storage/v1/storage.proto

import type { Long } from '@grpc/proto-loader';

export interface Preconditions {
  'uid'?: (string);
  'revision'?: (number | string | Long);
}

export interface Preconditions__Output {
  'uid': (string);
  'revision': (number);
}
