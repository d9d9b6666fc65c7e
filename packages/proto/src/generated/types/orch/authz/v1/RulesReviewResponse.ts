// Original file: proto/orch/authz/v1/authorizer.proto

import type { ResourceRule as _orch_authz_v1_ResourceRule, ResourceRule__Output as _orch_authz_v1_ResourceRule__Output } from '../../../orch/authz/v1/ResourceRule.js';
import type { NonResourceRule as _orch_authz_v1_NonResourceRule, NonResourceRule__Output as _orch_authz_v1_NonResourceRule__Output } from '../../../orch/authz/v1/NonResourceRule.js';

export interface RulesReviewResponse {
  'resource_rules'?: (_orch_authz_v1_ResourceRule)[];
  'non_resource_rules'?: (_orch_authz_v1_NonResourceRule)[];
  'incomplete'?: (boolean);
  'evaluation_error'?: (string);
}

export interface RulesReviewResponse__Output {
  'resource_rules': (_orch_authz_v1_ResourceRule__Output)[];
  'non_resource_rules': (_orch_authz_v1_NonResourceRule__Output)[];
  'incomplete': (boolean);
  'evaluation_error': (string);
}
