// Original file: proto/orch/admission/v1/admission.proto

import type { StatusCause as _orch_admission_v1_StatusCause, StatusCause__Output as _orch_admission_v1_StatusCause__Output } from '../../../orch/admission/v1/StatusCause.js';

export interface Status {
  'code'?: (number);
  'reason'?: (string);
  'message'?: (string);
  'causes'?: (_orch_admission_v1_StatusCause)[];
  'details'?: (Buffer | Uint8Array | string);
}

export interface Status__Output {
  'code': (number);
  'reason': (string);
  'message': (string);
  'causes': (_orch_admission_v1_StatusCause__Output)[];
  'details': (Buffer);
}
