// Original file: proto/orch/admission/v1/admission.proto

import type { AdmitRequest as _orch_admission_v1_AdmitRequest, AdmitRequest__Output as _orch_admission_v1_AdmitRequest__Output } from '../../../orch/admission/v1/AdmitRequest.js';
import type { Long } from '@grpc/proto-loader';

export interface AdmitCallRequest {
  'id'?: (number | string | Long);
  'admit'?: (_orch_admission_v1_AdmitRequest | null);
  'call'?: "admit";
}

export interface AdmitCallRequest__Output {
  'id': (number);
  'admit'?: (_orch_admission_v1_AdmitRequest__Output | null);
  'call'?: "admit";
}
