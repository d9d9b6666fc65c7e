// Original file: proto/orch/authz/v1/authorizer.proto

import type { Decision as _orch_authz_v1_Decision, Decision__Output as _orch_authz_v1_Decision__Output } from '../../../orch/authz/v1/Decision.js';
import type { Long } from '@grpc/proto-loader';

export interface AuthorizeResponse {
  'decision'?: (_orch_authz_v1_Decision);
  'reason'?: (string);
  'evaluation_error'?: (string);
  'policy_revisions'?: ({[key: string]: number | string | Long});
  'name_independent'?: (boolean);
}

export interface AuthorizeResponse__Output {
  'decision': (_orch_authz_v1_Decision__Output);
  'reason': (string);
  'evaluation_error': (string);
  'policy_revisions': ({[key: string]: number});
  'name_independent': (boolean);
}
