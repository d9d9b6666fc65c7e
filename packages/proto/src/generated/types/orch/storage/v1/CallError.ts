// Original file: proto/orch/storage/v1/storage.proto


export interface CallError {
  'code'?: (number);
  'message'?: (string);
  'status'?: (Buffer | Uint8Array | string);
}

export interface CallError__Output {
  'code': (number);
  'message': (string);
  'status': (Buffer);
}
