// Original file: proto/orch/admission/v1/admission.proto


export interface ListPluginsResponse {
  'plugins'?: (string)[];
  'resource_quota_limited_resources'?: (boolean);
}

export interface ListPluginsResponse__Output {
  'plugins': (string)[];
  'resource_quota_limited_resources': (boolean);
}
