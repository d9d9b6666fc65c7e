// Original file: proto/orch/storage/v1/storage.proto


export interface UpdateResponse {
  'object'?: (Buffer | Uint8Array | string);
}

export interface UpdateResponse__Output {
  'object': (Buffer);
}
