// Original file: proto/orch/admission/v1/admission.proto


export interface ListPluginsResponse {
  'plugins'?: (string)[];
}

export interface ListPluginsResponse__Output {
  'plugins': (string)[];
}
