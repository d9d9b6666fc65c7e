// Original file: proto/orch/authz/v1/authorizer.proto


export interface ResourceRule {
  'verbs'?: (string)[];
  'api_groups'?: (string)[];
  'resources'?: (string)[];
  'resource_names'?: (string)[];
}

export interface ResourceRule__Output {
  'verbs': (string)[];
  'api_groups': (string)[];
  'resources': (string)[];
  'resource_names': (string)[];
}
