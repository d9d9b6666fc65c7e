// Original file: proto/orch/admission/v1/admission.proto

import type { Status as _orch_admission_v1_Status, Status__Output as _orch_admission_v1_Status__Output } from '../../../orch/admission/v1/Status.js';

export interface AdmitResponse {
  'allowed'?: (boolean);
  'status'?: (_orch_admission_v1_Status | null);
  'object'?: (Buffer | Uint8Array | string);
  'warnings'?: (string)[];
  'audit_annotations'?: ({[key: string]: string});
  'validating_phase_idle'?: (boolean);
}

export interface AdmitResponse__Output {
  'allowed': (boolean);
  'status': (_orch_admission_v1_Status__Output | null);
  'object': (Buffer);
  'warnings': (string)[];
  'audit_annotations': ({[key: string]: string});
  'validating_phase_idle': (boolean);
}
