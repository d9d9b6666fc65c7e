// Original file: proto/orch/authz/v1/authorizer.proto

import type { StringList as _orch_authz_v1_StringList, StringList__Output as _orch_authz_v1_StringList__Output } from '../../../orch/authz/v1/StringList.js';

export interface AuthorizeRequest {
  'user'?: (string);
  'groups'?: (string)[];
  'uid'?: (string);
  'extra'?: ({[key: string]: _orch_authz_v1_StringList});
  'verb'?: (string);
  'api_group'?: (string);
  'api_version'?: (string);
  'resource'?: (string);
  'subresource'?: (string);
  'namespace'?: (string);
  'name'?: (string);
  'is_resource_request'?: (boolean);
  'path'?: (string);
}

export interface AuthorizeRequest__Output {
  'user': (string);
  'groups': (string)[];
  'uid': (string);
  'extra': ({[key: string]: _orch_authz_v1_StringList__Output});
  'verb': (string);
  'api_group': (string);
  'api_version': (string);
  'resource': (string);
  'subresource': (string);
  'namespace': (string);
  'name': (string);
  'is_resource_request': (boolean);
  'path': (string);
}
