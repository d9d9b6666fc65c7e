// Original file: proto/orch/admission/v1/admission.proto

import type { PodSecurityScope as _orch_admission_v1_PodSecurityScope, PodSecurityScope__Output as _orch_admission_v1_PodSecurityScope__Output } from '../../../orch/admission/v1/PodSecurityScope.js';

export interface ListPluginsResponse {
  'plugins'?: (string)[];
  'resource_quota_limited_resources'?: (boolean);
  'pod_security'?: (_orch_admission_v1_PodSecurityScope | null);
}

export interface ListPluginsResponse__Output {
  'plugins': (string)[];
  'resource_quota_limited_resources': (boolean);
  'pod_security': (_orch_admission_v1_PodSecurityScope__Output | null);
}
