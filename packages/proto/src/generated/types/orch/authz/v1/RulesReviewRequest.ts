// Original file: proto/orch/authz/v1/authorizer.proto

import type { StringList as _orch_authz_v1_StringList, StringList__Output as _orch_authz_v1_StringList__Output } from '../../../orch/authz/v1/StringList.js';

export interface RulesReviewRequest {
  'user'?: (string);
  'groups'?: (string)[];
  'uid'?: (string);
  'extra'?: ({[key: string]: _orch_authz_v1_StringList});
  'namespace'?: (string);
}

export interface RulesReviewRequest__Output {
  'user': (string);
  'groups': (string)[];
  'uid': (string);
  'extra': ({[key: string]: _orch_authz_v1_StringList__Output});
  'namespace': (string);
}
