// Original file: proto/orch/admission/v1/admission.proto


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
