// Original file: proto/orch/storage/v1/storage.proto


export interface CreateRequest {
  'key'?: (string);
  'object'?: (Buffer | Uint8Array | string);
}

export interface CreateRequest__Output {
  'key': (string);
  'object': (Buffer);
}
