// Original file: proto/orch/authz/v1/authorizer.proto

import type { Decision as _orch_authz_v1_Decision, Decision__Output as _orch_authz_v1_Decision__Output } from '../../../orch/authz/v1/Decision.js';

export interface AuthorizeResponse {
  'decision'?: (_orch_authz_v1_Decision);
  'reason'?: (string);
  'evaluation_error'?: (string);
}

export interface AuthorizeResponse__Output {
  'decision': (_orch_authz_v1_Decision__Output);
  'reason': (string);
  'evaluation_error': (string);
}
