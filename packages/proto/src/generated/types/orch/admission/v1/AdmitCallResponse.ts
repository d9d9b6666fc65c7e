// Original file: proto/orch/admission/v1/admission.proto

import type { AdmitResponse as _orch_admission_v1_AdmitResponse, AdmitResponse__Output as _orch_admission_v1_AdmitResponse__Output } from '../../../orch/admission/v1/AdmitResponse.js';
import type { CallError as _orch_admission_v1_CallError, CallError__Output as _orch_admission_v1_CallError__Output } from '../../../orch/admission/v1/CallError.js';
import type { Long } from '@grpc/proto-loader';

export interface AdmitCallResponse {
  'id'?: (number | string | Long);
  'admit'?: (_orch_admission_v1_AdmitResponse | null);
  'error'?: (_orch_admission_v1_CallError | null);
  'result'?: "admit"|"error";
}

export interface AdmitCallResponse__Output {
  'id': (number);
  'admit'?: (_orch_admission_v1_AdmitResponse__Output | null);
  'error'?: (_orch_admission_v1_CallError__Output | null);
  'result'?: "admit"|"error";
}
