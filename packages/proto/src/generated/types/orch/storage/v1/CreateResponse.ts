// Original file: proto/orch/storage/v1/storage.proto


export interface CreateResponse {
  'object'?: (Buffer | Uint8Array | string);
}

export interface CreateResponse__Output {
  'object': (Buffer);
}
