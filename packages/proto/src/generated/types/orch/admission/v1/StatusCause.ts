// Original file: proto/orch/admission/v1/admission.proto


export interface StatusCause {
  'reason'?: (string);
  'message'?: (string);
  'field'?: (string);
}

export interface StatusCause__Output {
  'reason': (string);
  'message': (string);
  'field': (string);
}
