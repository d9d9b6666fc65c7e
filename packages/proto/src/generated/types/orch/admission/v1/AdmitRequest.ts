// Original file: proto/orch/admission/v1/admission.proto

import type { Phase as _orch_admission_v1_Phase, Phase__Output as _orch_admission_v1_Phase__Output } from '../../../orch/admission/v1/Phase.js';
import type { UserInfo as _orch_admission_v1_UserInfo, UserInfo__Output as _orch_admission_v1_UserInfo__Output } from '../../../orch/admission/v1/UserInfo.js';

export interface AdmitRequest {
  'phase'?: (_orch_admission_v1_Phase);
  'plugins'?: (string)[];
  'operation'?: (string);
  'kind_group'?: (string);
  'kind_version'?: (string);
  'kind'?: (string);
  'resource_group'?: (string);
  'resource_version'?: (string);
  'resource'?: (string);
  'sub_resource'?: (string);
  'namespace'?: (string);
  'name'?: (string);
  'user_info'?: (_orch_admission_v1_UserInfo | null);
  'object'?: (Buffer | Uint8Array | string);
  'old_object'?: (Buffer | Uint8Array | string);
  'options'?: (Buffer | Uint8Array | string);
  'dry_run'?: (boolean);
}

export interface AdmitRequest__Output {
  'phase': (_orch_admission_v1_Phase__Output);
  'plugins': (string)[];
  'operation': (string);
  'kind_group': (string);
  'kind_version': (string);
  'kind': (string);
  'resource_group': (string);
  'resource_version': (string);
  'resource': (string);
  'sub_resource': (string);
  'namespace': (string);
  'name': (string);
  'user_info': (_orch_admission_v1_UserInfo__Output | null);
  'object': (Buffer);
  'old_object': (Buffer);
  'options': (Buffer);
  'dry_run': (boolean);
}
