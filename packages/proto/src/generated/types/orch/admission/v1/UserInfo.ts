// Original file: proto/orch/admission/v1/admission.proto

import type { StringList as _orch_admission_v1_StringList, StringList__Output as _orch_admission_v1_StringList__Output } from '../../../orch/admission/v1/StringList.js';

export interface UserInfo {
  'username'?: (string);
  'uid'?: (string);
  'groups'?: (string)[];
  'extra'?: ({[key: string]: _orch_admission_v1_StringList});
}

export interface UserInfo__Output {
  'username': (string);
  'uid': (string);
  'groups': (string)[];
  'extra': ({[key: string]: _orch_admission_v1_StringList__Output});
}
