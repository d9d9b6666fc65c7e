// Original file: proto/orch/authz/v1/authorizer.proto


export interface NonResourceRule {
  'verbs'?: (string)[];
  'non_resource_urls'?: (string)[];
}

export interface NonResourceRule__Output {
  'verbs': (string)[];
  'non_resource_urls': (string)[];
}
